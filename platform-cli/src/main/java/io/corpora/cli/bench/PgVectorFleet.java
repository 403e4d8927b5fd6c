package io.corpora.cli.bench;

import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.io.PrintStream;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Issue 19's fleet on the pgvector store, in two layouts each written through the real store plugin: one shared table
 * (the store's default schema) and the table LIST-partitioned by tenant with a partition per large tenant (the layout
 * plugins/store-pgvector/README.md recommends for many tenants with some large ones). On each, the smallest, median and
 * largest tenant are searched through Corpora's hot path and with raw SQL, and their recall measured against exact search.
 */
final class PgVectorFleet {

    /** The table layouts measured. */
    enum Layout {
        SHARED, PARTITIONED;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * The store's search settings, set explicitly (they are its defaults) so the raw SQL baseline runs with the same:
     * namespaces of at most {@link #EXACT_SEARCH_MAX_ROWS} rows are searched exactly, larger ones by HNSW.
     */
    static final int EXACT_SEARCH_MAX_ROWS = 10_000;
    static final int EF_SEARCH = 100;
    static final String ITERATIVE_SCAN = "relaxed_order";
    static final int MAX_SCAN_TUPLES = 20_000;
    /** The store runs every search on a plan made for its values; so does the raw SQL ({@link #rawSession}). */
    static final String PLAN_CACHE_MODE = "force_custom_plan";
    /** Connections of the store's pool: one per client of the busiest cell, as the raw baseline has. */
    static final int POOL_SIZE = BenchCommand.CLIENTS[BenchCommand.CLIENTS.length - 1];

    private final Profile shape;
    private final int partitions;
    private final String jdbcUrl;
    private final BenchCorpus corpus;
    private final Embedder model;
    private final PluginRegistry registry;
    private final Path work;
    private final PrintStream err;

    /** @param partitions how many of the largest tenants get a partition of their own in the partitioned layout */
    PgVectorFleet(Profile shape, int partitions, String jdbcUrl, BenchCorpus corpus, Embedder model, PluginRegistry registry, Path work,
                  PrintStream err) {
        this.shape = shape;
        this.partitions = partitions;
        this.jdbcUrl = jdbcUrl;
        this.corpus = corpus;
        this.model = model;
        this.registry = registry;
        this.work = work;
        this.err = err;
    }

    /** The tenants that get a partition of their own: the {@code n} largest of {@code shape} (ranks 1..n). */
    static List<String> partitionedTenants(Profile shape, int n) {
        List<String> tenants = new ArrayList<>();
        for (int rank = 1; rank <= Math.min(n, shape.tenants()); rank++) {
            tenants.add(Fleet.namespaceOf(rank).tenant());
        }
        return tenants;
    }

    /** A table of its own per run and layout, so that runs never collide ({@code runId}: lower-case letters and digits). */
    static String tableName(Layout layout, String runId) {
        return "bench_" + layout.label() + "_" + runId;
    }

    /** The store's configuration for a layout: its own schema (ensureSchema), the search settings the raw SQL shares. */
    Map<String, String> storeConfig(Layout layout, String table, int dimension) {
        Map<String, String> config = new LinkedHashMap<>();
        config.put("jdbcUrl", jdbcUrl);
        config.put("table", table);
        config.put("dimension", String.valueOf(dimension));
        config.put("ensureSchema", "true");
        config.put("poolSize", String.valueOf(POOL_SIZE));
        config.put("exactSearchMaxRows", String.valueOf(EXACT_SEARCH_MAX_ROWS));
        config.put("hnsw.efSearch", String.valueOf(EF_SEARCH));
        config.put("numCandidatesFactor", String.valueOf(Systems.NUM_CANDIDATES_FACTOR)); // the breadth the second raw baseline matches
        config.put("minCandidates", String.valueOf(Systems.MIN_CANDIDATES));
        config.put("iterativeScan", ITERATIVE_SCAN);
        config.put("maxScanTuples", String.valueOf(MAX_SCAN_TUPLES));
        if (layout == Layout.PARTITIONED) {
            config.put("tenantPartitions", String.join(",", partitionedTenants(shape, partitions)));
        }
        return config;
    }

    /**
     * The session the raw SQL runs in: the store's HNSW settings (it sets them per query with set_config, and raises
     * ef_search to its search breadth, 100 for a top 10, so ef_search stays 100), and custom plans as the store forces:
     * the driver's statement turns server-prepared after a few runs, and a generic plan of {@code tenant = $1} on a table of
     * many tenants reads a large tenant's rows instead of walking the HNSW index.
     */
    static Map<String, String> rawSession() {
        return Map.of("hnsw.ef_search", String.valueOf(EF_SEARCH), "hnsw.iterative_scan", ITERATIVE_SCAN,
                "hnsw.max_scan_tuples", String.valueOf(MAX_SCAN_TUPLES), "plan_cache_mode", PLAN_CACHE_MODE);
    }

    String describe() {
        return String.format("%d tenants, ~%d chunks (largest %d, median %d, smallest %d), Zipf s=%s, the same BenchCorpus vectors per"
                        + " (tenant, chunk) as the Lucene fleet; partitioned layout: the %d largest tenants own a partition, the rest share"
                        + " DEFAULT; store: exactSearchMaxRows=%d (exact below, HNSW %s iterative scan above), hnsw.efSearch=%d,"
                        + " maxScanTuples=%d, search breadth %d (the index scan explores that many rows and the nearest are chosen"
                        + " among them), m=16, ef_construction=64, indexes built while writing; raw SQL: %s, and at the store's breadth"
                        + " %s; session hnsw.ef_search=%d, iterative_scan=%s, max_scan_tuples=%d, plan_cache_mode=%s"
                        + " on every tenant (the store instead searches"
                        + " a tenant of <= %d rows exactly, and also filters partition, embedder and non-null embedding); beside them"
                        + " Corpora's hybrid retrieval (the default mode: the vector leg in the background while the store's full-text"
                        + " keyword leg runs, both at depth %d, fused by the shipped fusion, the fleet's real texts and queries)",
                shape.tenants(), shape.totalChunks(), shape.sizeOf(1), shape.sizeOf(Fleet.medianRank(shape)), shape.sizeOf(shape.tenants()),
                shape.zipf(), Math.min(partitions, shape.tenants()), EXACT_SEARCH_MAX_ROWS, ITERATIVE_SCAN, EF_SEARCH, MAX_SCAN_TUPLES,
                Systems.CORPORA_CANDIDATES, String.format(RawPgVector.SQL, "<table>"),
                String.format(RawPgVector.SQL_AT_BREADTH, "<table>", Systems.CORPORA_CANDIDATES), EF_SEARCH, ITERATIVE_SCAN,
                MAX_SCAN_TUPLES, PLAN_CACHE_MODE, EXACT_SEARCH_MAX_ROWS, io.corpora.engine.retriever.HybridRetriever.DEFAULT_FETCH_TOP_K);
    }

    void run(List<Layout> layouts, BenchResults results) throws Exception {
        results.note("pgvector shape", describe());
        String runId = Long.toString(System.currentTimeMillis(), 36);
        for (Layout layout : layouts) {
            String table = tableName(layout, runId);
            try {
                measure(layout, table, results);
            } finally {
                drop(table);
            }
        }
    }

    /** Writes the fleet into a fresh table of the layout through the store. Leaves the table for the caller to drop. */
    Fleet.Written build(Layout layout, String table) throws Exception {
        try (VectorStore store = open(layout, table)) {
            Fleet.Written fleet = Fleet.write(shape, corpus, model.fingerprint().id(), store, "pgvector " + layout.label(), err);
            analyze(table);
            return fleet;
        }
    }

    VectorStore open(Layout layout, String table) throws Exception {
        int dimension = corpus.vectors.get(0).length;
        return registry.create(VectorStoreProvider.class, "pgvector", BenchCommand.context(work, "pgvector-" + layout.label()),
                storeConfig(layout, table, dimension));
    }

    private void measure(Layout layout, String table, BenchResults results) throws Exception {
        Fleet.Written fleet = build(layout, table);
        results.pgVectorFleet(layout.label(), fleet, tableBytes(table));
        String corporaName = "corpora pgvector " + layout.label();
        String rawName = "raw pgvector " + layout.label();
        List<float[]> queries = corpus.queryVectors;
        ExecutorService legThreads = Executors.newCachedThreadPool(BenchCommand.daemonThreads("bench-hybrid-leg"));
        try (VectorStore store = open(layout, table)) {
            for (Fleet.Tenant tenant : fleet.measured()) {
                err.printf("bench: pgvector %s: measuring the %s tenant (%d chunks)%n", layout.label(), tenant.bucket(), tenant.size());
                Systems.Search corpora = Systems.corpora(store, tenant.namespace(), model, corpus.queryTexts, queries, false);
                Systems.Search hybrid = Systems.corporaHybrid(store, tenant.namespace(), model, corpus.queryTexts, queries, legThreads);
                requireKeywordMatches(Systems.corporaKeyword(store, tenant.namespace(), model, corpus.queryTexts), corpus.queryTexts.size(), tenant);
                try (RawPgVector raw = new RawPgVector(jdbcUrl, table, tenant.namespace().tenant(), rawSession(), queries, Systems.TOP_K);
                     RawPgVector rawSameBreadth = new RawPgVector(jdbcUrl, table, tenant.namespace().tenant(), rawSession(), queries,
                             Systems.CORPORA_CANDIDATES)) {
                    double corporaRecall = 0;
                    double rawRecall = 0;
                    double rawSameBreadthRecall = 0;
                    for (int q = 0; q < queries.size(); q++) {
                        List<String> truth = Fleet.exact(tenant, queries.get(q), false);
                        corporaRecall += Fleet.overlap(corpora.top(q, null), truth);
                        rawRecall += Fleet.overlap(raw.top(q, null), truth);
                        rawSameBreadthRecall += Fleet.overlap(rawSameBreadth.top(q, null), truth);
                    }
                    results.pgVectorRecall(layout.label(), tenant, corporaRecall / queries.size(), rawRecall / queries.size(),
                            rawSameBreadthRecall / queries.size());
                    Duration window = shape.window();
                    Duration warmup = shape.warmup();
                    for (int clients : BenchCommand.CLIENTS) {
                        results.latency(tenant, corporaName, Latency.measure(clients, window, warmup, q -> corpora.top(q, null)));
                        results.latency(tenant, rawName, Latency.measure(clients, window, warmup, q -> raw.top(q, null)));
                        results.latency(tenant, rawName + ", corpora's breadth",
                                Latency.measure(clients, window, warmup, q -> rawSameBreadth.top(q, null)));
                        results.latency(tenant, corporaName + ", hybrid", Latency.measure(clients, window, warmup, q -> hybrid.top(q, null)));
                    }
                }
            }
        } finally {
            legThreads.shutdownNow();
        }
    }

    /**
     * The hybrid's figures mean something only if its keyword leg finds passages too (the vector leg alone would fill
     * its top 10): the fleet's texts and queries are real (BenchCorpus), so some query must match in every tenant.
     */
    static void requireKeywordMatches(Systems.Search keyword, int queries, Fleet.Tenant tenant) {
        for (int q = 0; q < queries; q++) {
            if (!keyword.top(q, null).isEmpty()) {
                return;
            }
        }
        throw new IllegalStateException("no query matched a word of the " + tenant.bucket() + " tenant (" + tenant.size()
                + " chunks) in the keyword leg: a hybrid measured there would be the vector leg alone");
    }

    private Connection connect() throws SQLException {
        return connect(jdbcUrl);
    }

    /** A JDBC URL fit for a message: the value of a {@code password=} parameter hidden. */
    static String redacted(String jdbcUrl) {
        return jdbcUrl.replaceAll("password=[^&]*", "password=******");
    }

    /**
     * A connection through the driver on the bench's own class path: DriverManager may have registered the store
     * plugin's copy of the driver first (a class of the plugin's loader), which it then refuses to the bench.
     */
    static Connection connect(String jdbcUrl) throws SQLException {
        org.postgresql.ds.PGSimpleDataSource source = new org.postgresql.ds.PGSimpleDataSource();
        source.setURL(jdbcUrl);
        source.setApplicationName("corpora-bench");
        return source.getConnection();
    }

    /** Fresh statistics, as autovacuum would give a table loaded and left alone: the planner's choices depend on them. */
    private void analyze(String table) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("ANALYZE " + table);
        }
    }

    /** Bytes of the table, its partitions, TOAST and indexes (a partitioned parent holds none itself). */
    long tableBytes(String table) throws SQLException {
        try (Connection connection = connect(); PreparedStatement statement = connection.prepareStatement(
                "SELECT coalesce(sum(pg_total_relation_size(oid)), 0) FROM pg_class WHERE oid = ?::regclass"
                        + " OR oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = ?::regclass)")) {
            statement.setString(1, table);
            statement.setString(2, table);
            try (ResultSet rows = statement.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    void drop(String table) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table + " CASCADE"); // its partitions go with it
        }
    }
}
