package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.logging.Logger;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Issue 7's recall bar on a real database: 20k random 32-d vectors in 20 tenants of very different sizes in one
 * table; the smallest tenant (30 vectors, 0.15 % of the table) must get recall@10 >= 0.95 against exact search,
 * both through the HNSW index alone (iterative scan) and with the store's default exact path for small namespaces.
 */
class MultiTenantRecallIT {

    private static final Logger LOG = Logger.getLogger(MultiTenantRecallIT.class.getName());
    @RegisterExtension
    static final ItTable TABLE = new ItTable("it_recall_tenants");
    private static final String HNSW_INDEX = TABLE.name + "_embedding_cosine_idx";
    /** Sorting penalised, so the planner serves ORDER BY distance from the HNSW index even for a tiny tenant. */
    private static final String FORCE_INDEX = "options=-c%20enable_sort%3Doff";
    private static final int DIMENSION = 32;
    private static final int K = 10;
    private static SkewedTenants corpus;

    @BeforeAll
    static void loadOnce() throws Exception {
        if (!TestDatabase.configured()) {
            return; // each test is then skipped by requireDatabase, with the reason
        }
        TestDatabase.dropTable(TABLE.name);
        corpus = new SkewedTenants("recall", DIMENSION, 7);
        // A lighter graph (m 8, ef_construction 32) builds ~3x faster on the shared CI cores and makes the
        // recall bar harder to meet, not easier.
        try (PgVectorStore store = TestDatabase.open(TABLE.name, Map.of(PgVectorOptions.DIMENSION, Integer.toString(DIMENSION),
                PgVectorOptions.HNSW_M, "8", PgVectorOptions.HNSW_EF_CONSTRUCTION, "32"));
             Connection connection = TestDatabase.connect();
             Statement statement = connection.createStatement()) {
            // Bulk load without the HNSW index, then build it once: what an operator does for a large import,
            // and about 10x faster than maintaining the graph row by row.
            statement.execute("DROP INDEX " + HNSW_INDEX);
            long start = System.nanoTime();
            corpus.load(store);
            long loaded = System.nanoTime();
            for (String ddl : store.schemaStatements()) {
                statement.execute(ddl);
            }
            statement.execute("ANALYZE " + TABLE.name);
            LOG.info("loaded 20000 vectors in " + (loaded - start) / 1_000_000 + " ms, built the HNSW index in "
                    + (System.nanoTime() - loaded) / 1_000_000 + " ms");
        }
    }

    private static PgVectorStore store(String iterativeScan, int exactSearchMaxRows) {
        return store(Map.of(PgVectorOptions.ITERATIVE_SCAN, iterativeScan,
                PgVectorOptions.EF_SEARCH, "200", // compensates the lighter graph for the 60 % tenant
                PgVectorOptions.EXACT_SEARCH_MAX_ROWS, Integer.toString(exactSearchMaxRows)));
    }

    /** A store on the loaded table whose searches go through the HNSW index, with these options. */
    private static PgVectorStore store(Map<String, String> options) {
        Map<String, String> config = new java.util.HashMap<>(Map.of(
                PgVectorOptions.JDBC_URL, TestDatabase.url() + (TestDatabase.url().contains("?") ? "&" : "?") + FORCE_INDEX,
                PgVectorOptions.DIMENSION, Integer.toString(DIMENSION),
                PgVectorOptions.EXACT_SEARCH_MAX_ROWS, "0",
                PgVectorOptions.ENSURE_SCHEMA, "false"));
        config.putAll(options);
        return TestDatabase.open(TABLE.name, config);
    }

    @Test
    void theTableHoldsTwentyTenantsOfVeryDifferentSizes() {
        try (PgVectorStore store = store("relaxed_order", 0)) {
            long total = 0;
            for (int t = 0; t < corpus.tenants.size(); t++) {
                long count = store.count(corpus.tenants.get(t), MetadataFilter.all());
                assertEquals(SkewedTenants.SIZES[t], count, "size of " + corpus.tenants.get(t));
                total += count;
            }
            assertEquals(20_000, total);
        }
    }

    @Test
    void theSmallestTenantGetsFullRecallThroughTheHnswIndexWithIterativeScan() throws Exception {
        Namespace smallest = corpus.smallest();
        List<float[]> queries = corpus.queries(30, 11);
        assertTrue(usesHnswIndex(smallest, queries.get(0)), "the approximate path must be served by the HNSW index");
        double withoutIterativeScan;
        try (PgVectorStore store = store("off", 0)) {
            withoutIterativeScan = corpus.recall(store, VectorSimilarity.COSINE, smallest, queries, K);
        }
        try (PgVectorStore store = store("relaxed_order", 0)) {
            double recall = corpus.recall(store, VectorSimilarity.COSINE, smallest, queries, K);
            LOG.info("smallest tenant through HNSW: recall@10 = " + recall + " with relaxed_order iterative scan, "
                    + withoutIterativeScan + " without");
            assertTrue(recall >= 0.95, "recall@10 of the smallest tenant through HNSW + iterative scan: " + recall);
            assertTrue(withoutIterativeScan < 0.5, "without iterative scan the post-filtered HNSW search starves a 0.15 % tenant "
                    + "(the reason for the option); measured " + withoutIterativeScan);
        }
    }

    @Test
    void theSmallestTenantGetsExactResultsThroughTheDefaultExactPath() {
        List<float[]> queries = corpus.queries(50, 12);
        try (PgVectorStore store = TestDatabase.open(TABLE.name, Map.of(
                PgVectorOptions.DIMENSION, Integer.toString(DIMENSION), PgVectorOptions.ENSURE_SCHEMA, "false"))) {
            double recall = corpus.recall(store, VectorSimilarity.COSINE, corpus.smallest(), queries, K);
            assertEquals(1.0, recall, 1e-9, "a namespace below exactSearchMaxRows is searched exactly");
        }
    }

    @Test
    void theLargestTenantKeepsHighRecallThroughHnsw() {
        List<float[]> queries = corpus.queries(10, 13);
        try (PgVectorStore store = store("relaxed_order", 0)) {
            double recall = corpus.recall(store, VectorSimilarity.COSINE, corpus.tenants.get(0), queries, K);
            LOG.info("largest tenant (12000), HNSW + relaxed_order: recall@10 = " + recall);
            assertTrue(recall >= 0.9, "recall@10 of the largest tenant: " + recall);
        }
    }

    /**
     * A relaxed-order iterative scan returns rows only roughly nearest first: choosing the top among just the first
     * 2 x topK rows it returns loses neighbours that the default search breadth (100 rows, ranked by exact distance) keeps.
     */
    @Test
    void theSearchBreadthKeepsTheRelaxedScansNeighbours() {
        Namespace tenant = corpus.tenants.get(1); // 3,000 of the table's 20,000 rows: the graph is mostly other tenants'
        List<float[]> queries = corpus.queries(40, 14);
        double narrow;
        try (PgVectorStore store = store(Map.of(PgVectorOptions.NUM_CANDIDATES_FACTOR, "1", PgVectorOptions.MIN_CANDIDATES, "1",
                PgVectorOptions.EF_SEARCH, "20"))) {
            narrow = corpus.recall(store, VectorSimilarity.COSINE, tenant, queries, K);
        }
        try (PgVectorStore store = store(Map.of(PgVectorOptions.EF_SEARCH, "20"))) {
            double recall = corpus.recall(store, VectorSimilarity.COSINE, tenant, queries, K);
            LOG.info("tenant of 3,000 rows, HNSW + relaxed_order: recall@10 = " + recall + " at the default breadth, " + narrow
                    + " choosing among the first 20 rows the scan returns");
            assertTrue(recall >= 0.95, "recall@10 at the default search breadth: " + recall);
            assertTrue(recall - narrow >= 0.05, "the breadth must matter here, else this test shows nothing: " + recall + " vs " + narrow);
        }
    }

    /** EXPLAIN of the store's approximate query shape shows the HNSW index scan. */
    private static boolean usesHnswIndex(Namespace ns, float[] query) throws Exception {
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET enable_sort = off");
            StringBuilder vector = new StringBuilder("[");
            for (int i = 0; i < query.length; i++) {
                vector.append(i == 0 ? "" : ",").append(query[i]);
            }
            vector.append(']');
            String sql = "EXPLAIN SELECT chunk_id FROM " + TABLE.name + " WHERE tenant = '" + ns.tenant() + "' AND partition_key = '_default'"
                    + " AND embedding IS NOT NULL ORDER BY (embedding <=> '" + vector + "'::vector) LIMIT 20";
            StringBuilder plan = new StringBuilder();
            try (ResultSet rows = statement.executeQuery(sql)) {
                while (rows.next()) {
                    plan.append(rows.getString(1)).append('\n');
                }
            }
            return plan.toString().contains(HNSW_INDEX);
        }
    }
}
