package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The exact-or-HNSW choice without a count per search: a namespace this store grows past exactSearchMaxRows takes the HNSW
 * path at its next search; one another writer grows is counted again once exactSearchRecheckMillis is over. And the vectors
 * fetched in binary give the scores Java computes, on both paths, with or without includeEmbeddings.
 */
class ExactOrIndexSearchIT {

    private static final String TABLE = "it_exact_or_index";
    private static final float[] QUERY = {1, 0.25f, -0.5f};
    private static final int EXACT_SEARCH_MAX_ROWS = 5;

    @BeforeEach
    void freshTable() throws Exception {
        TestDatabase.url();
        TestDatabase.dropTable(TABLE);
    }

    private static PgVectorStore open(int recheckMillis) {
        return TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "3", PgVectorOptions.EXACT_SEARCH_MAX_ROWS, Integer.toString(EXACT_SEARCH_MAX_ROWS),
                PgVectorOptions.EXACT_SEARCH_RECHECK_MILLIS, Integer.toString(recheckMillis)));
    }

    private static List<EmbeddedChunk> rows(int from, int to) {
        return IntStream.range(from, to).mapToObj(i -> new EmbeddedChunk(new Chunk("c" + i, "doc", i, "text " + i, List.of(), Map.of()),
                new float[] {i * 0.37f - 1, 1.0f / (i + 3), (float) Math.sin(i)})).toList();
    }

    private static List<ScoredChunk> search(PgVectorStore store, Namespace ns, boolean withEmbeddings) {
        SearchRequest request = SearchRequest.vector(QUERY, 4, MetadataFilter.all(), null, null);
        return store.search(ns, withEmbeddings ? request.withEmbeddings() : request);
    }

    @Test
    void aNamespaceThisStoreGrowsPastTheBoundTakesTheIndexAtOnce() {
        Namespace ns = Namespace.of("grows-here");
        try (PgVectorStore store = open(3_600_000)) {
            store.upsert(ns, rows(0, 4));
            search(store, ns, false);
            assertEquals(Boolean.TRUE, store.sizesForTest().isWithin(ns, null, EXACT_SEARCH_MAX_ROWS), "4 rows: exact");
            store.upsert(ns, rows(4, 8));
            assertNull(store.sizesForTest().isWithin(ns, null, EXACT_SEARCH_MAX_ROWS), "the write forgot the size");
            assertEquals(4, search(store, ns, false).size(), "the top 4 through the index");
            assertEquals(Boolean.FALSE, store.sizesForTest().isWithin(ns, null, EXACT_SEARCH_MAX_ROWS), "8 rows: HNSW");
            store.deleteDocument(ns, "doc");
            assertNull(store.sizesForTest().isWithin(ns, null, EXACT_SEARCH_MAX_ROWS), "deletes forget it too");
        }
    }

    @Test
    void aNamespaceAnotherWriterGrowsIsCountedAgainAfterTheRecheckInterval() {
        Namespace ns = Namespace.of("grows-elsewhere");
        try (PgVectorStore searcher = open(1500); PgVectorStore writer = open(1500)) {
            writer.upsert(ns, rows(0, 4));
            long beforeCount = System.nanoTime(); // the verdict of the next search expires no sooner than the interval after this
            search(searcher, ns, false);
            writer.upsert(ns, rows(4, 8));
            search(searcher, ns, false);
            assertEquals(Boolean.TRUE, searcher.sizesForTest().isWithin(ns, null, EXACT_SEARCH_MAX_ROWS), "the other writer's rows are not counted yet");
            // Search until the verdict changes, within a deadline far beyond the interval (a loaded CI machine is slow),
            // and check it changed no sooner than the interval allows.
            long deadline = beforeCount + java.util.concurrent.TimeUnit.SECONDS.toNanos(30);
            while (!Boolean.FALSE.equals(searcher.sizesForTest().isWithin(ns, null, EXACT_SEARCH_MAX_ROWS)) && System.nanoTime() < deadline) {
                java.util.concurrent.locks.LockSupport.parkNanos(java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(20));
                search(searcher, ns, false);
            }
            assertEquals(Boolean.FALSE, searcher.sizesForTest().isWithin(ns, null, EXACT_SEARCH_MAX_ROWS), "counted again after the interval");
            assertTrue(System.nanoTime() - beforeCount >= java.util.concurrent.TimeUnit.MILLISECONDS.toNanos(1500),
                    "not counted again before the interval");
        }
    }

    @Test
    void scoresAndReturnedVectorsAreTheJavaOnesOnBothPaths() {
        Namespace small = Namespace.of("small");
        Namespace large = Namespace.of("large");
        try (PgVectorStore store = open(3_600_000)) {
            store.upsert(small, rows(0, 5));
            store.upsert(large, rows(0, 9));
            for (Namespace ns : List.of(small, large)) {
                Map<String, float[]> written = new java.util.HashMap<>();
                rows(0, 9).forEach(row -> written.put(row.chunk().id(), row.embedding()));
                List<ScoredChunk> plain = search(store, ns, false);
                List<ScoredChunk> withVectors = search(store, ns, true);
                assertEquals(4, plain.size());
                List<Double> expected = new ArrayList<>();
                for (int i = 0; i < plain.size(); i++) {
                    ScoredChunk hit = withVectors.get(i);
                    assertNull(plain.get(i).embedding(), "no vector unless asked");
                    assertEquals(hit.chunk().id(), plain.get(i).chunk().id());
                    assertArrayEquals(written.get(hit.chunk().id()), hit.embedding(), 0f, "the written floats, bit for bit");
                    assertEquals(VectorSimilarity.COSINE.score(QUERY, hit.embedding()), hit.score(), 0.0, "the Java score, exactly");
                    assertEquals(hit.score(), plain.get(i).score(), 0.0);
                    expected.add(hit.score());
                }
                assertEquals(expected.stream().sorted((a, b) -> Double.compare(b, a)).toList(), expected, "best first");
            }
            assertEquals(Boolean.TRUE, store.sizesForTest().isWithin(small, null, EXACT_SEARCH_MAX_ROWS));
            assertEquals(Boolean.FALSE, store.sizesForTest().isWithin(large, null, EXACT_SEARCH_MAX_ROWS));
        }
    }
}
