package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.engine.chunk.Chunkers;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.testkit.TestEmbedder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class HeadingContextualizerTest {

    private final HeadingContextualizer contextualizer = new HeadingContextualizer();

    @Test
    void indexTextIsTitleAndHeadingPathThenTheChunk() {
        Chunk chunk = new Chunk("p:1", "p", 1, "Hotels up to 150 EUR.", List.of("Expense Policy", "Lodging"), Map.of("title", "Handbook"));
        assertEquals("Handbook > Expense Policy > Lodging\n\nHotels up to 150 EUR.", contextualizer.indexText(chunk));
        EmbeddedChunk embedded = contextualizer.embedded(chunk, new float[] {1});
        assertEquals("Hotels up to 150 EUR.", embedded.chunk().text(), "the stored text stays clean");
    }

    @Test
    void aTitleEqualToTheTopHeadingIsNotRepeatedAndNoContextMeansTheChunkItself() {
        Chunk chunk = new Chunk("p:0", "p", 0, "Body.", List.of("Policy"), Map.of("title", "Policy"));
        assertEquals("Policy\n\nBody.", contextualizer.indexText(chunk));
        assertEquals("Plain.", contextualizer.indexText(new Chunk("q:0", "q", 0, "Plain.", List.of(), Map.of())));
    }

    @Test
    void theIndexerEmbedsTheIndexTextStampsTheFingerprintAndReturnsCleanText() {
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);
        TestEmbedder embedder = TestEmbedder.table("ctx", 2).put("Policy > Lodging\n\nHotels.", 1, 0).put("hotel question", 1, 0).build();
        List<Chunk> chunks = new Chunkers(ChunkingOptions.defaults()).chunk("policy.md",
                new LoadedDocument(ContentFormat.MARKDOWN, null, List.of(Section.of("# Policy\n## Lodging\nHotels.\n")), Map.of()));
        List<EmbeddedChunk> written = new ChunkIndexer(store, Namespace.of("acme"), embedder, contextualizer).index(chunks);
        assertEquals(List.of("Policy > Lodging\n\nHotels."), embedder.embeddedDocuments());
        assertEquals(embedder.fingerprint().id(), written.get(0).chunk().metadata().get(ReservedKeys.EMBEDDER));
        RetrievalResult result = new VectorRetriever(store, Namespace.of("acme"), embedder).retrieve("hotel question", RetrieveOptions.topK(1));
        assertEquals("Hotels.", result.passages().get(0).text());
        assertEquals(List.of("Policy", "Lodging"), result.passages().get(0).metadata().get(PassageKeys.HEADING_PATH));
    }
}
