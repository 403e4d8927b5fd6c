package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.engine.retriever.FusionSpec;
import io.corpora.engine.retriever.HybridRetriever;
import io.corpora.engine.retriever.KeywordRetriever;
import io.corpora.engine.retriever.RetrievalResult;
import io.corpora.engine.retriever.VectorRetriever;
import io.corpora.spi.Chunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchMode;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.testkit.ForwardingVectorStore;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.testkit.TestEmbedder;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A hybrid retrieval given leg threads embeds its query and calls the store for its vector leg on a leg thread while
 * its keyword leg calls the store on the caller's, and still checks every hit on the caller's thread: the isolation guard's version oracle (in the server, a control-plane read in the caller's
 * transaction) is never called from a leg thread, foreign hits are still dropped, and the answer is the one the legs
 * give run one after the other.
 */
class HybridLegsSideBySideTest {

    private static final Namespace ACME = Namespace.of("acme");
    private static final Namespace OTHER = Namespace.of("other");

    private final TestEmbedder table = TestEmbedder.table("table-2d", 2)
            .put("east", 1, 0).put("north-east", 1, 1).put("north", 0, 1).put("q-east", 1, 0.05f).build();
    private final ExecutorService legThreads = Executors.newFixedThreadPool(2);
    private final List<Thread> oracleThreads = new CopyOnWriteArrayList<>();

    @BeforeEach
    void clear() {
        oracleThreads.clear();
    }

    @AfterEach
    void stop() {
        legThreads.shutdownNow();
    }

    @Test
    void bothLegsCallTheStoreAtOnceAndEveryCheckRunsOnTheCallersThread() {
        Thread caller = Thread.currentThread();
        TwoLegStore together = new TwoLegStore(2, List.of("n:0", "e:0"));
        RetrievalResult sideBySide = hybrid(together, legThreads).retrieve("q-east", RetrieveOptions.topK(3));

        List<Thread> checkedOn = List.copyOf(oracleThreads);
        oracleThreads.clear();
        RetrievalResult inTurn = hybrid(new TwoLegStore(0, List.of("n:0", "e:0")), null).retrieve("q-east", RetrieveOptions.topK(3));

        assertEquals(inTurn.ids(), sideBySide.ids());
        assertEquals(inTurn.passages().stream().map(Passage::score).toList(), sideBySide.passages().stream().map(Passage::score).toList());
        assertEquals(2, together.searchThreads.size(), "one store call per leg");
        assertEquals(1, together.searchThreads.stream().filter(t -> t != caller).count(), "the vector leg's store call ran on a leg thread");
        assertEquals(2, checkedOn.size(), "each leg asked the versions of the documents the other had not");
        assertTrue(checkedOn.stream().allMatch(t -> t == Thread.currentThread()), "checks ran on the caller's thread, not " + checkedOn);
    }

    @Test
    void aForeignHitIsDroppedAsBefore() {
        TwoLegStore store = new TwoLegStore(0, List.of("n:0", "intruder:0", "e:0"));
        IsolationGuard guard = guard(store);
        RetrievalResult result = hybrid(guard, legThreads).retrieve("q-east", RetrieveOptions.topK(5));

        assertFalse(result.ids().contains("intruder:0"), "a chunk stamped for another tenant never leaves the guard");
        // counted once per store answer holding it: each leg's first, and the over-fetch each drop triggers
        assertEquals(4, guard.report().rejected());
        assertTrue(oracleThreads.stream().allMatch(t -> t == Thread.currentThread()));
    }

    @Test
    void aBackgroundLegsFailureFailsTheRetrievalWithTheStoresOwnException() {
        TwoLegStore store = new TwoLegStore(0, List.of("n:0")) {
            @Override
            public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
                if (request.mode() == SearchMode.VECTOR) {
                    throw new IllegalStateException("vector index unavailable");
                }
                return super.search(namespace, request);
            }
        };
        IllegalStateException e = assertThrows(IllegalStateException.class,
                () -> hybrid(guard(store), legThreads).retrieve("q-east", RetrieveOptions.topK(3)));
        assertEquals("vector index unavailable", e.getMessage());
    }

    @Test
    void withoutLegThreadsEverythingRunsOnTheCallersThread() {
        TwoLegStore store = new TwoLegStore(0, List.of("n:0"));
        hybrid(store, null).retrieve("q-east", RetrieveOptions.topK(3));
        assertEquals(2, store.searchThreads.size());
        assertTrue(store.searchThreads.stream().allMatch(t -> t == Thread.currentThread()));
        assertNotEquals(0, oracleThreads.size());
    }

    private HybridRetriever hybrid(TwoLegStore store, ExecutorService threads) {
        return hybrid(guard(store), threads);
    }

    private HybridRetriever hybrid(IsolationGuard guard, ExecutorService threads) {
        String embedderId = table.fingerprint().id();
        return HybridRetriever.of(FusionSpec.STANDARD, new VectorRetriever(guard, ACME, table, embedderId, threads),
                new KeywordRetriever(guard, ACME, embedderId), 10);
    }

    private IsolationGuard guard(io.corpora.spi.store.VectorStore store) {
        return new IsolationGuard(store, ACME, IsolationGuard.DEFAULT_OVER_FETCH, ids -> {
            oracleThreads.add(Thread.currentThread());
            Map<String, Integer> versions = new HashMap<>();
            ids.forEach(id -> versions.put(id, 1));
            return versions;
        });
    }

    /**
     * Vector search by the reference store (which leaks the other tenant's chunk too when the keyword ranking names it);
     * keyword search answers the given chunk ids in that order. With {@code together} = 2, neither answers until both
     * legs have called: run one after the other, a retrieval fails.
     */
    private class TwoLegStore extends ForwardingVectorStore {
        private final CountDownLatch arrived;
        private final List<String> keywordRanking;
        final List<Thread> searchThreads = new CopyOnWriteArrayList<>();

        TwoLegStore(int together, List<String> keywordRanking) {
            super(new ReferenceVectorStore(VectorSimilarity.COSINE, 2));
            this.arrived = new CountDownLatch(together);
            this.keywordRanking = keywordRanking;
            new ChunkIndexer(this, ACME, table, new HeadingContextualizer())
                    .index(List.of(chunk(ACME, "e", "east"), chunk(ACME, "ne", "north-east"), chunk(ACME, "n", "north")));
            new ChunkIndexer(this, OTHER, table, new HeadingContextualizer()).index(List.of(chunk(OTHER, "intruder", "east")));
        }

        private static Chunk chunk(Namespace namespace, String documentId, String text) {
            return ReservedKeyStamper.stamp(new Chunk(documentId + ":0", documentId, 0, text, List.of(), Map.of()), namespace, documentId, 1);
        }

        @Override
        public Set<StoreCapability> capabilities() {
            return EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.KEYWORD_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN);
        }

        @Override
        public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
            searchThreads.add(Thread.currentThread());
            arrived.countDown();
            try {
                if (!arrived.await(10, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the other leg never called the store while this one waited");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
            if (request.mode() == SearchMode.VECTOR) {
                if (!keywordRanking.contains("intruder:0")) {
                    return super.search(namespace, request);
                }
                List<ScoredChunk> leaky = new java.util.ArrayList<>(super.search(namespace, request)); // a store that leaks
                leaky.addAll(super.search(OTHER, request));
                leaky.sort(java.util.Comparator.comparingDouble(ScoredChunk::score).reversed());
                return leaky;
            }
            List<ScoredChunk> hits = new java.util.ArrayList<>();
            for (int i = 0; i < keywordRanking.size(); i++) {
                String id = keywordRanking.get(i);
                String documentId = id.substring(0, id.indexOf(':'));
                Namespace holder = documentId.equals("intruder") ? OTHER : namespace;
                Chunk chunk = documentChunks(holder, documentId).get(0);
                hits.add(new ScoredChunk(chunk, keywordRanking.size() - i));
            }
            return hits;
        }
    }
}
