package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStoreProvider;
import io.corpora.testkit.RecordedOptions;
import io.corpora.testkit.TestVectors;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Behaviour specific to the Lucene store, beyond the shared contract. */
class LuceneVectorStoreTest {

    private static final Namespace NS = Namespace.of("acme");

    @TempDir
    Path data;

    private static EmbeddedChunk chunk(String id, String text, float[] vector) {
        return new EmbeddedChunk(new Chunk(id, "doc-" + id, 0, text, List.of(), Map.of("id", id)), vector);
    }

    @Test
    void theProviderIsDiscoveredByServiceLoaderAndDeclaresEveryOption() {
        VectorStoreProvider provider = ServiceLoader.load(VectorStoreProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("lucene")).findFirst().orElseThrow();
        RecordedOptions.assertRecordedDefaults(provider, """
                name                    | type     | default  | minimum | maximum    | aliases
                directory               | PATH     |          |         |            |
                metric                  | ENUM     | cosine   |         |            |
                hnsw.m                  | INT      | 16       | 2       | 512        | hnswM
                hnsw.efConstruction     | INT      | 100      | 2       | 3200       | hnsw.beamWidth,hnswEfConstruction
                quantization            | ENUM     | none     |         |            |
                numCandidatesFactor     | INT      | 4        | 1       | 100        |
                minCandidates           | INT      | 100      | 1       | 10000      |
                exactSearchThreshold    | INT      | 5000     | 0       |            |
                bm25.k1                 | DOUBLE   | 1.2      | 0       |            |
                bm25.b                  | DOUBLE   | 0.75     | 0       | 1          |
                analyzer                | ENUM     | english  |         |            |
                commitInterval          | DURATION | 0s       | 0s      |            |
                ramBufferMb             | DOUBLE   | 64       | 1       | 2048       |
                merge.floorSegmentMb    | DOUBLE   | 16       | 0.1     | 1024       |
                merge.idleSegments      | INT      | 1        | 0       | 1000       |
                merge.idleAfter         | DURATION | 60s      | 1s      | 24h        |
                merge.idleMaxChunks     | INT      | 200000   | 0       |            |
                translog.flushInterval  | DURATION | 5s       | 10ms    | 1h         |
                translog.flushBytes     | LONG     | 16777216 | 65536   | 1073741824 |
                storedFields.blockKb    | INT      | 16       | 4       | 80         |
                keyword.titleBoost      | DOUBLE   | 0        | 0       | 10         |
                keyword.prf.chunks      | INT      | 0        | 0       | 50         |
                keyword.prf.terms       | INT      | 10       | 1       | 100        |
                keyword.prf.queryWeight | DOUBLE   | 0.5      | 0       | 1          |
                """);
        provider.configOptions().forEach(option -> assertFalse(option.description().isBlank(), option.name() + " is undocumented"));
    }

    @Test
    void outOfRangeOptionsAreReportedTogether() {
        InvalidConfigException error = assertThrows(InvalidConfigException.class,
                () -> StoreFixtures.open(data, Map.of("hnsw.m", "1", "bm25.b", "1.5", "numCandidatesFactor", "0")));
        assertEquals(3, error.problems().size(), error.getMessage());
        assertTrue(error.getMessage().contains("option 'hnsw.m': must be at least 2, got 1"), error.getMessage());
    }

    /** The HNSW knobs' older spellings still configure them; both spellings at once is refused rather than guessed. */
    @Test
    void oldHnswSpellingsAreAliases() {
        LuceneStoreSettings settings = LuceneStoreSettings.from(PluginContext.of(data, "test"), PluginConfig.validate("lucene",
                LuceneStoreSettings.options(), Map.of("hnswM", "24", "hnsw.beamWidth", "48")));
        assertEquals(24, settings.hnswM());
        assertEquals(48, settings.hnswEfConstruction());
        InvalidConfigException both = assertThrows(InvalidConfigException.class, () -> StoreFixtures.open(data,
                Map.of("hnsw.efConstruction", "40", "hnsw.beamWidth", "48")));
        assertTrue(both.getMessage().contains("given twice"), both.getMessage());
    }

    @Test
    void committedDataSurvivesCloseAndReopen() {
        float[] v = new TestVectors(1, 8).next();
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            store.upsert(NS, List.of(chunk("a", "persistent lodging", v), chunk("b", "other", new TestVectors(2, 8).next())));
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            assertEquals(2, store.count(NS, MetadataFilter.all()));
            assertEquals("a", store.search(NS, SearchRequest.vector(v, 1, MetadataFilter.all(), null, null)).get(0).chunk().id());
            assertEquals("a", store.search(NS, SearchRequest.keyword("lodging", 1, MetadataFilter.all(), null, null)).get(0).chunk().id());
        }
    }

    @Test
    void releasingATenantClosesItsIndexesOnlyAndTheNextCallReopensThemWithEveryWrite() {
        float[] v = new TestVectors(4, 8).next();
        // background commits: the release itself must commit what the interval has not yet
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("commitInterval", "1h"))) {
            Namespace acmeEu = Namespace.of("acme", "eu");
            Namespace other = Namespace.of("globex");
            store.upsert(NS, List.of(chunk("a", "kept across release", v)));
            store.upsert(acmeEu, List.of(chunk("e", "eu partition", v)));
            store.upsert(other, List.of(chunk("g", "other tenant", v)));
            assertEquals(3, store.openNamespaces());

            store.releaseTenant("acme");

            assertEquals(1, store.openNamespaces(), "both partitions of acme closed, globex still open");
            assertEquals(1, store.count(NS, MetadataFilter.all()), "reopened on the next call with the uncommitted write");
            assertEquals(1, store.count(acmeEu, MetadataFilter.all()));
            assertEquals("a", store.search(NS, SearchRequest.keyword("release", 1, MetadataFilter.all(), null, null)).get(0).chunk().id());
            store.releaseTenant("nobody"); // a tenant with nothing open: nothing happens
            assertEquals(3, store.openNamespaces());
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            assertEquals(1, store.count(NS, MetadataFilter.all()), "durable: the release committed");
        }
    }

    @Test
    void anOffloadedTenantIsOneArchiveAndHoldsNothingOpenUntilRestored() {
        float[] v = new TestVectors(5, 8).next();
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            Namespace eu = Namespace.of("acme", "eu");
            store.upsert(NS, List.of(chunk("a", "offloaded and back", v)));
            store.upsert(eu, List.of(chunk("e", "eu", v), chunk("f", "eu too", v)));
            store.upsert(Namespace.of("globex"), List.of(chunk("g", "stays", v)));

            assertTrue(store.offloadTenant("acme"));

            assertFalse(Files.exists(data.resolve("acme")), "the live directory is gone");
            assertTrue(Files.isRegularFile(data.resolve(LuceneVectorStore.OFFLOADED).resolve("acme.zip")));
            assertEquals(1, store.openNamespaces(), "only globex is open");
            assertEquals(1, store.count(Namespace.of("globex"), MetadataFilter.all()));

            store.restoreTenant("acme");

            assertFalse(Files.exists(data.resolve(LuceneVectorStore.OFFLOADED).resolve("acme.zip")));
            assertEquals(1, store.count(NS, MetadataFilter.all()));
            assertEquals(2, store.count(eu, MetadataFilter.all()));
            assertEquals("a", store.search(NS, SearchRequest.vector(v, 1, MetadataFilter.all(), null, null)).get(0).chunk().id());
            store.restoreTenant("acme"); // nothing offloaded: nothing happens
            assertEquals(1, store.count(NS, MetadataFilter.all()));

            assertTrue(store.offloadTenant("acme"));
            assertTrue(store.deleteTenant("acme"));
            assertFalse(Files.exists(data.resolve(LuceneVectorStore.OFFLOADED).resolve("acme.zip")), "a purge deletes the archive too");
        }
    }

    @Test
    void reopeningAnIndexWithAnotherMetricFailsNamingBoth() {
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("metric", "cosine"))) {
            store.upsert(NS, List.of(chunk("a", "t", new TestVectors(3, 8).next())));
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("metric", "l2"))) {
            IllegalStateException error = assertThrows(IllegalStateException.class, () -> store.count(NS, MetadataFilter.all()));
            assertTrue(error.getMessage().contains("corpora.metric=COSINE") && error.getMessage().contains("L2"), error.getMessage());
        }
    }

    @Test
    void oneNamespaceHoldsVectorsOfTwoWidthsDuringAReEmbedding() {
        float[] narrow = new TestVectors(4, 8).next();
        float[] wide = new TestVectors(5, 16).next();
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            store.upsert(NS, List.of(chunk("old", "t", narrow), chunk("new", "t", wide)));
            assertEquals(List.of("old"), ids(store.search(NS, SearchRequest.vector(narrow, 5, MetadataFilter.all(), null, null))));
            assertEquals(List.of("new"), ids(store.search(NS, SearchRequest.vector(wide, 5, MetadataFilter.all(), null, null))));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class,
                    () -> store.search(NS, SearchRequest.vector(new TestVectors(6, 4).next(), 5, MetadataFilter.all(), null, null)));
            assertTrue(error.getMessage().contains("[8, 16]"), error.getMessage());
        }
    }

    @Test
    void aBadChunkFailsTheWholeBatchBeforeAnythingIsWritten() {
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            List<EmbeddedChunk> batch = List.of(chunk("good", "t", new TestVectors(7, 8).next()), chunk("zero", "t", new float[8]));
            IllegalArgumentException error = assertThrows(IllegalArgumentException.class, () -> store.upsert(NS, batch));
            assertTrue(error.getMessage().contains("chunk 'zero' is a zero vector"), error.getMessage());
            assertEquals(0, store.count(NS, MetadataFilter.all()));
            store.upsert(NS, batch.subList(0, 1));
            assertEquals(1, store.count(NS, MetadataFilter.all()), "the store still writes afterwards");
        }
    }

    @Test
    void deletingANamespaceRemovesItsDirectoryAndKeepsOthers() throws Exception {
        Namespace team = Namespace.of("acme", "team");
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            store.upsert(NS, List.of(chunk("a", "t", new TestVectors(8, 8).next())));
            store.upsert(team, List.of(chunk("a", "t", new TestVectors(8, 8).next())));
            Path path = store.pathOf(NS);
            assertTrue(Files.isDirectory(path));
            store.deleteNamespace(NS);
            assertFalse(Files.exists(path));
            try (Stream<Path> trash = Files.list(data.resolve(LuceneVectorStore.TRASH))) {
                assertEquals(0, trash.count(), "the moved-aside directory is deleted too");
            }
            assertEquals(1, store.count(team, MetadataFilter.all()));
            store.upsert(NS, List.of(chunk("b", "t", new TestVectors(9, 8).next())));
            assertEquals(List.of("b"), store.list(NS, null, 10).chunks().stream().map(Chunk::id).toList(), "a deleted namespace starts empty");
        }
    }

    @Test
    void theEnglishAnalyzerStemsAndTheStandardOneDoesNot() {
        try (LuceneVectorStore english = StoreFixtures.open(data.resolve("en"), Map.of())) {
            english.upsert(NS, List.of(chunk("a", "Lodging is booked centrally", null)));
            assertEquals(List.of("a"), ids(english.search(NS, SearchRequest.keyword("lodges", 5, MetadataFilter.all(), null, null))));
            assertTrue(english.search(NS, SearchRequest.keyword("the is", 5, MetadataFilter.all(), null, null)).isEmpty(),
                    "a query of stop words only finds nothing");
        }
        try (LuceneVectorStore standard = StoreFixtures.open(data.resolve("std"), Map.of("analyzer", "standard"))) {
            standard.upsert(NS, List.of(chunk("a", "Lodging is booked centrally", null)));
            assertTrue(standard.search(NS, SearchRequest.keyword("lodges", 5, MetadataFilter.all(), null, null)).isEmpty());
            assertEquals(List.of("a"), ids(standard.search(NS, SearchRequest.keyword("LODGING", 5, MetadataFilter.all(), null, null))));
        }
    }

    @Test
    void bm25ParametersChangeTheScores() {
        List<EmbeddedChunk> docs = List.of(chunk("once", "quartz granite basalt", null), chunk("twice", "quartz quartz basalt", null));
        try (LuceneVectorStore defaults = StoreFixtures.open(data.resolve("default"), Map.of())) {
            defaults.upsert(NS, docs);
            List<ScoredChunk> hits = defaults.search(NS, SearchRequest.keyword("quartz", 5, MetadataFilter.all(), null, null));
            assertEquals(List.of("twice", "once"), ids(hits));
            assertTrue(hits.get(0).score() > hits.get(1).score());
        }
        try (LuceneVectorStore noTf = StoreFixtures.open(data.resolve("k1zero"), Map.of("bm25.k1", "0"))) {
            noTf.upsert(NS, docs);
            List<ScoredChunk> hits = noTf.search(NS, SearchRequest.keyword("quartz", 5, MetadataFilter.all(), null, null));
            assertEquals(hits.get(0).score(), hits.get(1).score(), "k1 = 0 ignores term frequency");
            assertEquals(List.of("once", "twice"), ids(hits), "then ids break the tie");
        }
    }

    @Test
    void aSelectiveFilterIsSearchedExactlyAndABroadOneThroughHnsw() {
        TestVectors vectors = new TestVectors(10, 8);
        List<EmbeddedChunk> batch = new ArrayList<>();
        IntStream.range(0, 60).forEach(i -> batch.add(new EmbeddedChunk(
                new Chunk("c" + i, "d", i, "t", List.of(), Map.of("rare", i < 5)), vectors.next())));
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("exactSearchThreshold", "20", "minCandidates", "10"))) {
            store.upsert(NS, batch);
            float[] q = vectors.next();
            VectorSearch.Outcome rare = store.vectorSearch(NS, SearchRequest.vector(q, 3, MetadataFilter.eq("rare", true), null, null));
            assertEquals(VectorSearch.Strategy.EXACT, rare.strategy());
            assertEquals(5, rare.filtered());
            VectorSearch.Outcome broad = store.vectorSearch(NS, SearchRequest.vector(q, 3, MetadataFilter.all(), null, null));
            assertEquals(VectorSearch.Strategy.HNSW, broad.strategy());
            assertEquals(3, broad.hits().size());
        }
    }

    /** An exact scan keeps every candidate tied at its cut, so chunk ids, not the order documents were written in, decide. */
    @Test
    void anExactScanKeepsTiesAtTheCandidateCutSoIdsDecide() {
        float[] same = new TestVectors(12, 8).next();
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (int i = 29; i >= 0; i--) { // written in descending id order: doc order and id order disagree
            batch.add(chunk(String.format("c%02d", i), "t", same));
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("minCandidates", "5", "numCandidatesFactor", "1"))) {
            store.upsert(NS, batch);
            VectorSearch.Outcome outcome = store.vectorSearch(NS, SearchRequest.vector(same, 3, MetadataFilter.all(), null, null));
            assertEquals(VectorSearch.Strategy.EXACT, outcome.strategy());
            assertEquals(List.of("c00", "c01", "c02"), ids(outcome.hits()), "30 equal scores, 5 candidates: the smallest ids win");
        }
    }

    /** The graph search drops its filter only when every vector passes it: another embedder generation's chunks never come back. */
    @Test
    void hnswKeepsTheEmbedderFilterWhileAnotherGenerationSharesTheIndex() {
        TestVectors vectors = new TestVectors(13, 8);
        List<EmbeddedChunk> batch = new ArrayList<>();
        for (int i = 0; i < 60; i++) {
            batch.add(new EmbeddedChunk(new Chunk("c" + i, "d" + i, 0, "t", List.of(),
                    Map.of(ReservedKeys.EMBEDDER, i % 3 == 0 ? "old" : "new")), vectors.next()));
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("exactSearchThreshold", "0", "minCandidates", "10"))) {
            store.upsert(NS, batch);
            for (int q = 0; q < 5; q++) {
                VectorSearch.Outcome outcome = store.vectorSearch(NS, SearchRequest.vector(vectors.next(), 10, MetadataFilter.all(), null, "new"));
                assertEquals(VectorSearch.Strategy.HNSW, outcome.strategy());
                assertEquals(40, outcome.filtered());
                assertEquals(10, outcome.hits().size());
                outcome.hits().forEach(hit -> assertEquals("new", hit.chunk().metadata().get(ReservedKeys.EMBEDDER), hit.chunk().id()));
            }
            store.deleteWhere(NS, MetadataFilter.eq(ReservedKeys.EMBEDDER, "old"));
            VectorSearch.Outcome alone = store.vectorSearch(NS, SearchRequest.vector(vectors.next(), 10, MetadataFilter.all(), null, "new"));
            assertEquals(VectorSearch.Strategy.HNSW, alone.strategy());
            assertEquals(40, alone.filtered(), "every vector passes now (deleted documents are not counted)");
            assertEquals(10, alone.hits().size());
        }
    }

    /**
     * The keyword leg drops its filter while every chunk passes it (the count is remembered per reader): scores are those
     * of the text alone, and a chunk of another embedder written afterwards — a new reader — is filtered out again.
     */
    @Test
    void bm25DropsTheEmbedderFilterOnlyWhileEveryChunkPassesIt() {
        TestVectors vectors = new TestVectors(17, 8);
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            List<EmbeddedChunk> batch = new ArrayList<>();
            for (int i = 0; i < 30; i++) {
                batch.add(new EmbeddedChunk(new Chunk("c" + i, "d" + i, 0, i % 2 == 0 ? "salt marsh tides" : "salt flats", List.of(),
                        Map.of(ReservedKeys.EMBEDDER, "new")), vectors.next()));
            }
            store.upsert(NS, batch);
            List<ScoredChunk> unfiltered = store.search(NS, SearchRequest.keyword("salt marsh", 10, MetadataFilter.all(), null, null));
            List<ScoredChunk> filtered = store.search(NS, SearchRequest.keyword("salt marsh", 10, MetadataFilter.all(), null, "new"));
            assertEquals(ids(unfiltered), ids(filtered));
            for (int i = 0; i < unfiltered.size(); i++) {
                assertEquals(unfiltered.get(i).score(), filtered.get(i).score(), "a filter every chunk passes does not change a score");
            }

            store.upsert(NS, List.of(new EmbeddedChunk(new Chunk("old", "d-old", 0, "salt marsh salt marsh", List.of(),
                    Map.of(ReservedKeys.EMBEDDER, "old")), vectors.next())));
            List<String> afterWrite = ids(store.search(NS, SearchRequest.keyword("salt marsh", 10, MetadataFilter.all(), null, "new")));
            assertFalse(afterWrite.contains("old"), "another embedder's chunk, best by BM25, must stay filtered out: " + afterWrite);
            assertTrue(ids(store.search(NS, SearchRequest.keyword("salt marsh", 10, MetadataFilter.all(), null, null))).contains("old"));
        }
    }

    @Test
    void withBackgroundCommitsWritesAreVisibleAtOnceAndCommittedOnClose() {
        float[] v = new TestVectors(11, 8).next();
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of("commitInterval", "1h"))) {
            store.upsert(NS, List.of(chunk("a", "t", v)));
            assertEquals(1, store.count(NS, MetadataFilter.all()), "near-real-time: visible before any commit");
        }
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            assertEquals(1, store.count(NS, MetadataFilter.all()), "a clean close commits");
        }
    }

    /**
     * Writes do not refresh the searcher; a read refreshes when writes were applied since it opened. Read-your-writes must
     * hold all the same: three writers publish each chunk once its upsert returned, and two readers, each read starting
     * after that, must find it (by id, by filter, and its vector), while the writers keep writing.
     */
    @Test
    void aReadThatStartsAfterAWriteReturnedSeesItWhileOthersKeepWriting() throws Exception {
        int writers = 3;
        int perWriter = 60;
        java.util.concurrent.BlockingQueue<String> returned = new java.util.concurrent.LinkedBlockingQueue<>();
        java.util.concurrent.atomic.AtomicInteger writing = new java.util.concurrent.atomic.AtomicInteger(writers);
        List<String> failures = java.util.Collections.synchronizedList(new ArrayList<>());
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int writer = w;
                threads.add(new Thread(() -> {
                    TestVectors vectors = new TestVectors(100 + writer, 8);
                    try {
                        for (int i = 0; i < perWriter; i++) {
                            String id = "w" + writer + "-" + i;
                            store.upsert(NS, List.of(chunk(id, "written by " + writer, vectors.next())));
                            returned.add(id);
                        }
                    } catch (RuntimeException e) {
                        failures.add("writer " + writer + ": " + e);
                    } finally {
                        writing.decrementAndGet();
                    }
                }));
            }
            java.util.concurrent.atomic.AtomicInteger checked = new java.util.concurrent.atomic.AtomicInteger();
            for (int r = 0; r < 2; r++) {
                threads.add(new Thread(() -> {
                    try {
                        while (writing.get() > 0 || !returned.isEmpty()) {
                            String id = returned.poll(10, java.util.concurrent.TimeUnit.MILLISECONDS);
                            if (id == null) {
                                continue;
                            }
                            if (store.count(NS, MetadataFilter.eq("id", id)) != 1) {
                                failures.add(id + " returned but a later count did not see it");
                            }
                            if (!store.storedVectors(NS, List.of(id)).orElseThrow().containsKey(id)) {
                                failures.add(id + " returned but a later read of its vector did not see it");
                            }
                            checked.incrementAndGet();
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    } catch (RuntimeException e) {
                        failures.add("reader: " + e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            for (Thread thread : threads) {
                thread.join();
            }
            assertEquals(List.of(), failures);
            assertEquals(writers * perWriter, checked.get(), "every returned write was read back");
            assertEquals(writers * perWriter, store.count(NS, MetadataFilter.all()));
        }
    }

    @Test
    void aClosedStoreRefusesCallsAndClosingTwiceIsHarmless() {
        LuceneVectorStore store = StoreFixtures.open(data, Map.of());
        store.checkHealth();
        store.close();
        store.close();
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> store.count(NS, MetadataFilter.all()));
        assertTrue(error.getMessage().contains("is closed"));
        assertThrows(IllegalStateException.class, store::checkHealth);
    }

    @Test
    void twoStoresOfThisProcessOnOneDirectoryHandANamespaceOver() {
        try (LuceneVectorStore first = StoreFixtures.open(data, Map.of()); LuceneVectorStore second = StoreFixtures.open(data,
                Map.of("numCandidatesFactor", "20"))) {
            first.upsert(NS, List.of(chunk("a", "t", new TestVectors(12, 8).next())));
            assertEquals(1, second.count(NS, MetadataFilter.all()), "the first store committed and closed the index for the second");
            second.upsert(NS, List.of(chunk("b", "t", new TestVectors(12, 9).next())));
            assertEquals(2, first.count(NS, MetadataFilter.all()), "and it goes back the other way");
            second.deleteNamespace(NS);
            assertEquals(0, first.count(NS, MetadataFilter.all()), "deleting takes the index from its holder first");
        }
    }

    @Test
    void anIndexLockedOutsideThisStoreIsRefusedWithAClearMessage() throws Exception {
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            store.upsert(NS, List.of(chunk("a", "t", new TestVectors(12, 8).next())));
            store.close();
            Path path = LuceneVectorStore.pathOf(data, NS);
            // Another process's writer holds the index's lock (the native lock is per process: a raw holder stands in for it).
            try (org.apache.lucene.store.Directory directory = org.apache.lucene.store.FSDirectory.open(path);
                 org.apache.lucene.store.Lock held = directory.obtainLock(org.apache.lucene.index.IndexWriter.WRITE_LOCK_NAME);
                 LuceneVectorStore second = StoreFixtures.open(data, Map.of())) {
                IllegalStateException error = assertThrows(IllegalStateException.class, () -> second.count(NS, MetadataFilter.all()));
                assertTrue(error.getMessage().contains("is held by another store instance or process"), error.getMessage());
            }
        }
    }

    @Test
    void listRefusesAnUnboundedPage() {
        try (LuceneVectorStore store = StoreFixtures.open(data, Map.of())) {
            assertThrows(IllegalArgumentException.class, () -> store.list(NS, null, 0));
            assertThrows(IllegalArgumentException.class, () -> store.list(NS, null, LuceneVectorStore.MAX_PAGE + 1));
        }
    }

    private static List<String> ids(List<ScoredChunk> hits) {
        return hits.stream().map(h -> h.chunk().id()).toList();
    }
}
