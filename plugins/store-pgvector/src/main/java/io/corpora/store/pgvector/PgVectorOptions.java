package io.corpora.store.pgvector;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import java.util.List;

/** The declared options of the {@code pgvector} store provider (names, types, defaults, meaning). */
final class PgVectorOptions {

    static final String DATA_SOURCE = "dataSource";
    static final String JDBC_URL = "jdbcUrl";
    static final String USER = "user";
    static final String PASSWORD = "password";
    static final String POOL_SIZE = "poolSize";
    static final String TABLE = "table";
    static final String COLUMNS = "columns";
    static final String DIMENSION = "dimension";
    static final String METRIC = "metric";
    static final String EF_SEARCH = "hnsw.efSearch";
    static final String NUM_CANDIDATES_FACTOR = "numCandidatesFactor";
    static final String MIN_CANDIDATES = "minCandidates";
    static final String ITERATIVE_SCAN = "iterativeScan";
    static final String MAX_SCAN_TUPLES = "maxScanTuples";
    static final String EXACT_SEARCH_MAX_ROWS = "exactSearchMaxRows";
    static final String EXACT_SEARCH_RECHECK_MILLIS = "exactSearchRecheckMillis";
    static final String HNSW_M = "hnsw.m";
    static final String HNSW_EF_CONSTRUCTION = "hnsw.efConstruction";
    static final String UPSERT_BATCH_SIZE = "upsertBatchSize";
    static final String NULLABLE_EMBEDDINGS = "nullableEmbeddings";
    static final String FULL_TEXT = "fullText";
    static final String FULL_TEXT_LANGUAGE = "fullTextLanguage";
    static final String STOP_WORDS = "stopWords";
    static final String ANY_TERM_FALLBACK = "anyTermFallback";
    static final String ENSURE_SCHEMA = "ensureSchema";
    static final String TENANT_PARTITIONS = "tenantPartitions";
    static final String REPLICA_JDBC_URLS = "replicaJdbcUrls";
    static final String MAX_REPLICA_LAG_MILLIS = "maxReplicaLagMillis";
    static final String CONSISTENCY_WAIT_MILLIS = "consistencyWaitMillis";

    private PgVectorOptions() {}

    static List<ConfigOption> all() {
        return List.of(
                ConfigOption.builder(DATA_SOURCE, ConfigType.STRING)
                        .description("JNDI name of a container-managed DataSource (e.g. Liberty's <dataSource jndiName=\"jdbc/corpora\">); "
                                + "exactly one of dataSource or jdbcUrl").build(),
                ConfigOption.builder(JDBC_URL, ConfigType.STRING)
                        .description("jdbc:postgresql:// URL for the CLI and tests, used with a small built-in pool; exactly one of dataSource or jdbcUrl").build(),
                ConfigOption.builder(USER, ConfigType.STRING).description("database user for jdbcUrl (else the URL's user)").build(),
                ConfigOption.builder(PASSWORD, ConfigType.STRING).secret().description("database password for jdbcUrl").build(),
                ConfigOption.builder(POOL_SIZE, ConfigType.INT).defaultValue(8).minimum(1).maximum(256)
                        .description("most connections the built-in pool opens for jdbcUrl (ignored with dataSource)").build(),
                ConfigOption.builder(TABLE, ConfigType.STRING).defaultValue("corpora_chunks")
                        .description("chunk table, optionally schema-qualified; must match [a-z_][a-z0-9_]* per part").build(),
                ConfigOption.builder(COLUMNS, ConfigType.LIST)
                        .description("column name overrides as logical=physical pairs, logical one of tenant, partition, id, documentId, "
                                + "chunkIndex, embedder, text, indexText, headingPath, metadata, embedding").build(),
                ConfigOption.builder(DIMENSION, ConfigType.LIST).defaultValue("384")
                        .description("vector width, or a comma-separated list of widths for a mixed-model table (untyped column, "
                                + "one partial HNSW index per width)").build(),
                ConfigOption.builder(METRIC, ConfigType.ENUM).defaultValue("cosine").allowedValues("cosine", "l2", "inner")
                        .description("distance operator and HNSW opclass: cosine (<=>), l2 (<->) or inner product (<#>)").build(),
                ConfigOption.builder(EF_SEARCH, ConfigType.INT).defaultValue(100).minimum(1).maximum(PgVectorSettings.MAX_EF_SEARCH)
                        .aliases("efSearch")
                        .description("hnsw.ef_search per query (raised to the query's search breadth, at most the maximum)").build(),
                ConfigOption.builder(NUM_CANDIDATES_FACTOR, ConfigType.INT).defaultValue(4).minimum(1).maximum(100)
                        .description("HNSW search breadth = max(topK x this, minCandidates), at most " + PgVectorSettings.MAX_EF_SEARCH
                                + ": rows the index scan returns, in its approximate order, before the nearest are chosen "
                                + "exactly (the Lucene store's option of the same name)").build(),
                ConfigOption.builder(MIN_CANDIDATES, ConfigType.INT).defaultValue(100).minimum(1).maximum(PgVectorSettings.MAX_EF_SEARCH)
                        .description("lower bound of the HNSW search breadth").build(),
                ConfigOption.builder(ITERATIVE_SCAN, ConfigType.ENUM).defaultValue("relaxed_order")
                        .allowedValues("off", "strict_order", "relaxed_order")
                        .description("hnsw.iterative_scan (pgvector >= 0.8): keep scanning the graph until enough rows pass the filter").build(),
                ConfigOption.builder(MAX_SCAN_TUPLES, ConfigType.INT).defaultValue(20000).minimum(1)
                        .description("hnsw.max_scan_tuples: bound of an iterative scan (pgvector >= 0.8)").build(),
                ConfigOption.builder(EXACT_SEARCH_MAX_ROWS, ConfigType.INT).defaultValue(10000).minimum(0).maximum(10_000_000)
                        .description("a namespace with at most this many rows is searched exactly (no HNSW), so small tenants "
                                + "in a shared table keep full recall; 0 disables").build(),
                ConfigOption.builder(EXACT_SEARCH_RECHECK_MILLIS, ConfigType.INT).defaultValue(1000).minimum(0).maximum(3_600_000)
                        .description("how long a namespace's size (within exactSearchMaxRows or not) is remembered before it is counted "
                                + "again: this store's own writes forget it at once, other servers' writes are seen after at most "
                                + "this long; 0 counts before every search").build(),
                ConfigOption.builder(HNSW_M, ConfigType.INT).defaultValue(16).minimum(2).maximum(100).aliases("hnswM")
                        .description("HNSW m of the created index").build(),
                ConfigOption.builder(HNSW_EF_CONSTRUCTION, ConfigType.INT).defaultValue(64).minimum(4).maximum(1000)
                        .aliases("hnswEfConstruction")
                        .description("HNSW ef_construction of the created index; at least 2 x hnsw.m").build(),
                ConfigOption.builder(UPSERT_BATCH_SIZE, ConfigType.INT).defaultValue(100).minimum(1).maximum(5000)
                        .description("rows per multi-row INSERT ... ON CONFLICT statement").build(),
                ConfigOption.builder(NULLABLE_EMBEDDINGS, ConfigType.BOOLEAN).defaultValue(false)
                        .description("accept chunks without an embedding (stored as NULL: skipped by vector search, found by full text)").build(),
                ConfigOption.builder(FULL_TEXT, ConfigType.BOOLEAN).defaultValue(true)
                        .description("serve the keyword leg with PostgreSQL full text (GIN index over to_tsvector)").build(),
                ConfigOption.builder(FULL_TEXT_LANGUAGE, ConfigType.ENUM).defaultValue("english")
                        .allowedValues(PgVectorSettings.TEXT_SEARCH_CONFIGS.toArray(String[]::new))
                        .description("text-search configuration of the index and the queries (stemming)").build(),
                ConfigOption.builder(STOP_WORDS, ConfigType.LIST).defaultValue("english,portuguese,spanish")
                        .description("stop-word lists the keyword leg chooses from per query (english, portuguese, spanish), or none").build(),
                ConfigOption.builder(ANY_TERM_FALLBACK, ConfigType.BOOLEAN).defaultValue(true)
                        .description("keyword leg returns rows holding any query term (ranked by summed IDF); false keeps only rows holding all").build(),
                ConfigOption.builder(ENSURE_SCHEMA, ConfigType.BOOLEAN).defaultValue(false)
                        .description("run the idempotent DDL at start (tests, demos); production runs the Flyway migration").build(),
                ConfigOption.builder(TENANT_PARTITIONS, ConfigType.LIST)
                        .description("tenants that get a LIST partition (so an HNSW graph) of their own when the DDL creates the table; "
                                + "every other tenant shares its DEFAULT partition; empty: an unpartitioned table. Partitions are "
                                + "named by position (<table>_tenant_<i>): append new tenants, never reorder").build(),
                ConfigOption.builder(REPLICA_JDBC_URLS, ConfigType.LIST)
                        .description("jdbc:postgresql:// URLs of streaming replicas (hot standbys) that serve searches, round robin; "
                                + "writes, counts and listings stay on the primary; same user and password as the primary").build(),
                ConfigOption.builder(MAX_REPLICA_LAG_MILLIS, ConfigType.INT).defaultValue(5000).minimum(0).maximum(3_600_000)
                        .description("a replica whose replay lag exceeds this many milliseconds is skipped (the primary serves): "
                                + "the staleness a search may see").build(),
                ConfigOption.builder(CONSISTENCY_WAIT_MILLIS, ConfigType.INT).defaultValue(1000).minimum(0).maximum(60_000)
                        .description("a search carrying a read-your-writes token waits at most this long for a replica to replay "
                                + "past it, then reads from the primary").build());
    }
}
