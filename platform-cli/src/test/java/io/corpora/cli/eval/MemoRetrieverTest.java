package io.corpora.cli.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.engine.retriever.RetrievalResult;
import io.corpora.engine.retriever.Retriever;
import io.corpora.engine.retriever.VectorRetriever;
import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.testkit.TestEmbedder;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The eval's memo of a leg: one search per query and depth, whoever asks, and never a filtered one. */
class MemoRetrieverTest {

    /** A vector leg over the SPI kit's exact store that records every search reaching it. */
    private static final class Counting implements Retriever {
        final List<String> calls = new ArrayList<>();
        private final Retriever leg;

        Counting() {
            ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 16);
            TestEmbedder embedder = TestEmbedder.ofDimension(16);
            new ChunkIndexer(store, EvalRun.NAMESPACE, embedder, new HeadingContextualizer())
                    .index(List.of(new Chunk("a#0", "a", 0, "lava flows", List.of(), Map.of())));
            leg = new VectorRetriever(store, EvalRun.NAMESPACE, embedder);
        }

        @Override
        public RetrievalResult retrieve(String query, RetrieveOptions options) {
            calls.add(options.topK() + " " + query);
            return leg.retrieve(query, options);
        }
    }

    @Test
    void theSameQueryAndDepthSearchOnceWhateverTheCaller() {
        Counting leg = new Counting();
        MemoRetriever memo = new MemoRetriever(leg);
        RetrievalResult first = memo.retrieve("lava", RetrieveOptions.topK(300));
        assertEquals(List.of("a#0"), first.ids());
        // a hybrid asks its legs with options it derived (withTopK): the same unfiltered search
        assertSame(first, memo.retrieve("lava", RetrieveOptions.topK(300).withTopK(300).withMaxChars(null)));
        assertEquals(List.of("300 lava"), leg.calls);
        memo.retrieve("lava", RetrieveOptions.topK(100));
        memo.retrieve("ice", RetrieveOptions.topK(100));
        memo.retrieve("lava", RetrieveOptions.topK(300));
        assertEquals(List.of("300 lava", "100 lava", "100 ice", "300 lava"), leg.calls, "only the last search is kept");
    }

    @Test
    void filteredFlooredOrCutSearchesAreNeverServedFromMemory() {
        Counting leg = new Counting();
        MemoRetriever memo = new MemoRetriever(leg);
        RetrieveOptions filtered = RetrieveOptions.topK(300).withFilter(MetadataFilter.eq("lang", "en"));
        memo.retrieve("lava", filtered);
        memo.retrieve("lava", filtered);
        memo.retrieve("lava", RetrieveOptions.topK(300).withMinScore(0.5));
        memo.retrieve("lava", RetrieveOptions.topK(300).withMaxChars(100));
        memo.retrieve("lava", RetrieveOptions.topK(300).withMaxChars(100));
        assertEquals(5, leg.calls.size());
    }
}
