package io.corpora.store.pgvector;

import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Issue 7 item 7, measured by hand (not a unit test): a small tenant in a table shared with big tenants,
 * searched through one shared HNSW graph (iterative scan off / strict / relaxed), through the store's exact path,
 * and through a table LIST-partitioned by tenant (one HNSW graph per tenant). Prints recall@10 against exact
 * search and the mean latency per query.
 *
 * <pre>
 * CORPORA_TEST_PG_URL=jdbc:postgresql://127.0.0.1:5432/corpora_test?user=postgres \
 *   mvn -q -o -f plugins/store-pgvector/pom.xml test-compile exec:java \
 *   -Dexec.mainClass=io.corpora.store.pgvector.TenantScaleMeasurement -Dexec.classpathScope=test
 * </pre>
 */
public final class TenantScaleMeasurement {

    private static final int DIMENSION = 32;
    private static final int K = 10;
    private static final String SHARED = "m_scale_shared";
    private static final String PARTITIONED = "m_scale_partitioned";
    private static final String FORCE_INDEX = "options=-c%20enable_sort%3Doff";

    private TenantScaleMeasurement() {}

    public static void main(String[] args) throws Exception {
        String url = System.getenv(TestDatabase.URL_VARIABLE);
        if (url == null) {
            throw new IllegalStateException("set " + TestDatabase.URL_VARIABLE);
        }
        SkewedTenants corpus = new SkewedTenants("scale", DIMENSION, 7);
        long sharedBuild = load(url, SHARED, corpus, false);
        long partitionedBuild = load(url, PARTITIONED, corpus, true);
        System.out.printf("HNSW build after load: shared %d ms, partitioned %d ms%n", sharedBuild, partitionedBuild);

        List<float[]> queries = corpus.queries(50, 11);
        Map<String, Namespace> probes = new LinkedHashMap<>();
        probes.put("smallest (30 rows, 0.15 %)", corpus.smallest());
        probes.put("mid (300 rows, 1.5 %)", corpus.tenants.get(6));
        probes.put("largest (12000 rows, 60 %)", corpus.tenants.get(0));
        String forced = url + (url.contains("?") ? "&" : "?") + FORCE_INDEX;

        record Setup(String name, String table, String url, String iterativeScan, int exactRows) {}
        List<Setup> setups = List.of(
                new Setup("shared, HNSW forced, iterative scan off", SHARED, forced, "off", 0),
                new Setup("shared, HNSW forced, strict_order", SHARED, forced, "strict_order", 0),
                new Setup("shared, HNSW forced, relaxed_order", SHARED, forced, "relaxed_order", 0),
                new Setup("shared, planner's choice, relaxed_order", SHARED, url, "relaxed_order", 0),
                new Setup("shared, store default (exact <= 10000 rows, else relaxed_order)", SHARED, url, "relaxed_order", 10000),
                new Setup("partitioned by tenant, HNSW forced, iterative scan off", PARTITIONED, forced, "off", 0));

        System.out.println("| setup | tenant | recall@10 | mean ms/query |");
        System.out.println("|---|---|---|---|");
        for (Setup setup : setups) {
            try (PgVectorStore store = TestDatabase.open(setup.table(), Map.of(
                    PgVectorOptions.JDBC_URL, setup.url(),
                    PgVectorOptions.DIMENSION, Integer.toString(DIMENSION),
                    PgVectorOptions.ENSURE_SCHEMA, "false",
                    PgVectorOptions.ITERATIVE_SCAN, setup.iterativeScan(),
                    PgVectorOptions.EXACT_SEARCH_MAX_ROWS, Integer.toString(setup.exactRows())))) {
                for (Map.Entry<String, Namespace> probe : probes.entrySet()) {
                    corpus.recall(store, VectorSimilarity.COSINE, probe.getValue(), queries.subList(0, 5), K); // warm-up
                    SkewedTenants.Measured measured = corpus.measure(store, VectorSimilarity.COSINE, probe.getValue(), queries, K);
                    System.out.printf("| %s | %s | %.3f | %.1f |%n", setup.name(), probe.getKey(), measured.recall(), measured.meanMillis());
                }
            }
        }
    }

    /** Creates and loads the table (partitioned by tenant or not), then builds the indexes; returns the index build time. */
    private static long load(String url, String table, SkewedTenants corpus, boolean partitioned) throws Exception {
        Map<String, String> options = new LinkedHashMap<>(Map.of(PgVectorOptions.DIMENSION, Integer.toString(DIMENSION)));
        if (partitioned) {
            options.put(PgVectorOptions.TENANT_PARTITIONS, String.join(",", corpus.tenants.stream().map(Namespace::tenant).toList()));
        }
        // The table (and its partitions) before the load, the indexes after it: a bulk build is faster than inserts into a graph.
        List<String> ddl = new ChunkSchema(PgVectorStoreProvider.settings(TestDatabase.config(TestDatabase.options(table, options))))
                .statements(false);
        List<String> indexes = ddl.stream().filter(s -> s.startsWith("CREATE INDEX")).toList();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
            for (String tableDdl : ddl.stream().filter(s -> !indexes.contains(s)).toList()) {
                statement.execute(tableDdl);
            }
        }
        try (PgVectorStore store = TestDatabase.open(table, Map.of(PgVectorOptions.DIMENSION, Integer.toString(DIMENSION),
                PgVectorOptions.ENSURE_SCHEMA, "false"))) {
            corpus.load(store);
        }
        long start = System.nanoTime();
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            for (String index : indexes) {
                statement.execute(index);
            }
            statement.execute("ANALYZE " + table);
        }
        return (System.nanoTime() - start) / 1_000_000;
    }
}
