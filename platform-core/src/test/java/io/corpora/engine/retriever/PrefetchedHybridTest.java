package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.Namespace;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.embed.Embedder;
import io.corpora.testkit.ReferenceVectorStore;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import io.corpora.testkit.TestEmbedder;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** A hybrid retrieval embeds its query on the prefetcher while its keyword leg runs, and answers as if run in turn. */
class PrefetchedHybridTest {

    private static final Namespace ACME = Namespace.of("acme");

    private final ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);
    private final TestEmbedder table = TestEmbedder.table("table-2d", 2)
            .put("east", 1, 0).put("north-east", 1, 1).put("north", 0, 1).put("q-east", 1, 0.05f).build();
    private final ExecutorService prefetcher = Executors.newFixedThreadPool(2);

    @BeforeEach
    void index() {
        new ChunkIndexer(store, ACME, table, new HeadingContextualizer()).index(List.of(chunk("e", "east"), chunk("ne", "north-east"),
                chunk("n", "north")));
    }

    @AfterEach
    void stop() {
        prefetcher.shutdownNow();
    }

    private static Chunk chunk(String documentId, String text) {
        return new Chunk(documentId + ":0", documentId, 0, text, List.of(), Map.of());
    }

    @Test
    void theKeywordLegRunsWhileTheQueryIsEmbedded() {
        CountDownLatch keywordRan = new CountDownLatch(1);
        // The model answers only once the keyword leg has run: run one after the other, this retrieval would fail.
        Embedder waitsForKeyword = new Delegating(table) {
            @Override
            public float[] embedQuery(String query) {
                try {
                    if (!keywordRan.await(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the keyword leg did not run while the query was embedded");
                    }
                } catch (InterruptedException e) {
                    throw new IllegalStateException(e);
                }
                return super.embedQuery(query);
            }
        };
        Retriever keyword = (query, options) -> {
            keywordRan.countDown();
            return FixedRetriever.ranking("keyword", "n:0", "e:0").retrieve(query, options);
        };
        VectorRetriever vector = new VectorRetriever(store, ACME, waitsForKeyword, waitsForKeyword.fingerprint().id(), prefetcher);
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("vector", vector), HybridRetriever.Leg.of("keyword", keyword)));

        RetrievalResult concurrent = hybrid.retrieve("q-east", RetrieveOptions.topK(3));

        HybridRetriever inTurn = new HybridRetriever(List.of(HybridRetriever.Leg.of("vector", new VectorRetriever(store, ACME, table)),
                HybridRetriever.Leg.of("keyword", FixedRetriever.ranking("keyword", "n:0", "e:0"))));
        RetrievalResult sequential = inTurn.retrieve("q-east", RetrieveOptions.topK(3));
        assertEquals(sequential.ids(), concurrent.ids());
        assertEquals(sequential.passages().stream().map(p -> p.score()).toList(), concurrent.passages().stream().map(p -> p.score()).toList());
        assertEquals(List.of("embed", "vector", "keyword", "fusion"),
                concurrent.diagnostics().legs().stream().map(LegReport::name).toList(), "reported in the declared order");
    }

    @Test
    void aFailingPrefetchedEmbeddingFailsTheRetrievalWithTheEmbeddersOwnException() {
        Embedder broken = new Delegating(table) {
            @Override
            public float[] embedQuery(String query) {
                throw new UnsupportedOperationException("model down");
            }
        };
        VectorRetriever vector = new VectorRetriever(store, ACME, broken, broken.fingerprint().id(), prefetcher);
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("vector", vector),
                HybridRetriever.Leg.of("keyword", FixedRetriever.ranking("keyword", "n:0"))));
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> hybrid.retrieve("q-east", RetrieveOptions.topK(3)));
        assertEquals("model down", e.getMessage());
    }

    @Test
    void withoutAPrefetcherAStartedRetrievalRunsWhenJoined() {
        assertTrue(!new VectorRetriever(store, ACME, table).start("q-east", RetrieveOptions.topK(3)).inBackground());
        assertTrue(new VectorRetriever(store, ACME, table, table.fingerprint().id(), prefetcher).start("q-east", RetrieveOptions.topK(3))
                .inBackground());
    }

    /** Forwards to the table embedder. */
    private static class Delegating implements Embedder {
        private final Embedder delegate;

        Delegating(Embedder delegate) {
            this.delegate = delegate;
        }

        @Override
        public EmbedderFingerprint fingerprint() {
            return delegate.fingerprint();
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            return delegate.embedDocuments(texts);
        }

        @Override
        public float[] embedQuery(String query) {
            return delegate.embedQuery(query);
        }
    }
}
