package io.corpora.store.pgvector;

import io.corpora.spi.config.PluginConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The store's validated settings. Everything that will be spliced into SQL (table, columns, text-search
 * configuration, widths, HNSW parameters) is checked here, before any connection is opened.
 */
record PgVectorSettings(
        Optional<String> dataSourceJndiName,
        Optional<String> jdbcUrl,
        Optional<String> user,
        Optional<String> password,
        int poolSize,
        String table,
        ChunkColumns columns,
        List<Integer> dimensions,
        DistanceMetric metric,
        int efSearch,
        int numCandidatesFactor,
        int minCandidates,
        IterativeScan iterativeScan,
        int maxScanTuples,
        int exactSearchMaxRows,
        int exactSearchRecheckMillis,
        int hnswM,
        int hnswEfConstruction,
        int upsertBatchSize,
        boolean nullableEmbeddings,
        boolean fullText,
        String fullTextLanguage,
        List<String> stopWordLanguages,
        boolean anyTermFallback,
        boolean ensureSchema,
        List<String> tenantPartitions) {

    /** pgvector's HNSW index holds {@code vector} values of at most 2000 dimensions. */
    static final int MAX_INDEXED_DIMENSIONS = 2000;
    /** pgvector's upper bound for {@code hnsw.ef_search}. */
    static final int MAX_EF_SEARCH = 1000;
    /** Leaves room for the longest index-name suffix within PostgreSQL's 63-byte names. */
    static final int MAX_TABLE_NAME = 40;

    /** PostgreSQL's built-in text-search configurations: the only values spliced as {@code 'name'::regconfig}. */
    static final List<String> TEXT_SEARCH_CONFIGS = List.of("simple", "arabic", "armenian", "basque", "catalan", "danish",
            "dutch", "english", "finnish", "french", "german", "greek", "hindi", "hungarian", "indonesian", "irish",
            "italian", "lithuanian", "nepali", "norwegian", "portuguese", "romanian", "russian", "serbian", "spanish",
            "swedish", "tamil", "turkish", "yiddish");

    enum IterativeScan {
        OFF("off"), STRICT_ORDER("strict_order"), RELAXED_ORDER("relaxed_order");

        final String value;

        IterativeScan(String value) {
            this.value = value;
        }

        static IterativeScan of(String value) {
            return valueOf(value.toUpperCase(Locale.ROOT));
        }
    }

    PgVectorSettings {
        SqlIdentifier.requireTable(table);
        if (bareTableName(table).length() > MAX_TABLE_NAME) {
            throw new IllegalArgumentException("table name '" + table + "' is longer than " + MAX_TABLE_NAME
                    + " characters (index names derive from it and must fit PostgreSQL's 63)");
        }
        if (dimensions.isEmpty()) {
            throw new IllegalArgumentException("dimension needs at least one width");
        }
        for (int width : dimensions) {
            if (width < 1 || width > MAX_INDEXED_DIMENSIONS) {
                throw new IllegalArgumentException("dimension " + width + " is outside 1.." + MAX_INDEXED_DIMENSIONS
                        + " (pgvector's HNSW limit for the vector type)");
            }
        }
        dimensions = List.copyOf(new TreeSet<>(dimensions));
        // Each option's own bounds are declared in PgVectorOptions (the server checked them); only rules across options here.
        if (hnswEfConstruction < 2 * hnswM) {
            throw new IllegalArgumentException(PgVectorOptions.HNSW_EF_CONSTRUCTION + " (" + hnswEfConstruction + ") must be at least 2 x "
                    + PgVectorOptions.HNSW_M + " (" + hnswM + ")");
        }
        if (!TEXT_SEARCH_CONFIGS.contains(fullTextLanguage)) {
            throw new IllegalArgumentException("fullTextLanguage '" + fullTextLanguage + "' is not a built-in text-search configuration");
        }
        if (dataSourceJndiName.isPresent() == jdbcUrl.isPresent()) {
            throw new IllegalArgumentException("set exactly one of dataSource (a JNDI name) or jdbcUrl");
        }
        jdbcUrl.ifPresent(url -> {
            if (!url.startsWith("jdbc:postgresql:")) {
                throw new IllegalArgumentException("jdbcUrl must start with jdbc:postgresql:, got: " + redacted(url));
            }
        });
        stopWordLanguages = List.copyOf(stopWordLanguages);
        tenantPartitions = List.copyOf(tenantPartitions);
        if (tenantPartitions.stream().anyMatch(String::isBlank) || tenantPartitions.stream().distinct().count() != tenantPartitions.size()) {
            throw new IllegalArgumentException(PgVectorOptions.TENANT_PARTITIONS + " must list distinct, non-blank tenants, got " + tenantPartitions);
        }
    }

    /** The text-search configuration as SQL, e.g. {@code 'english'::regconfig}: safe to splice, being one of {@link #TEXT_SEARCH_CONFIGS}. */
    String textSearchConfig() {
        return "'" + fullTextLanguage + "'::regconfig";
    }

    boolean partitionedByTenant() {
        return !tenantPartitions.isEmpty();
    }

    static String bareTableName(String table) {
        int dot = table.indexOf('.');
        return dot < 0 ? table : table.substring(dot + 1);
    }

    /**
     * Rows an HNSW search explores for a top {@code topK}, at most {@value #MAX_EF_SEARCH}: an iterative scan in relaxed
     * order returns rows only roughly nearest first, so the nearest are chosen among this many by their exact distance.
     */
    int searchBreadth(int topK) {
        return (int) Math.min(MAX_EF_SEARCH, Math.max((long) topK * numCandidatesFactor, minCandidates));
    }

    boolean mixedDimensions() {
        return dimensions.size() > 1;
    }

    /** Reads the provider's options; throws IllegalArgumentException naming the first bad option. */
    static PgVectorSettings from(PluginConfig config) {
        List<Integer> widths = new ArrayList<>();
        for (String width : config.getList(PgVectorOptions.DIMENSION)) {
            try {
                widths.add(Integer.parseInt(width.trim()));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("dimension must be a width or a comma-separated list of widths, got '" + width + "'");
            }
        }
        List<String> stopWords = new ArrayList<>();
        for (String language : config.getList(PgVectorOptions.STOP_WORDS)) {
            String trimmed = language.trim().toLowerCase(Locale.ROOT);
            if (trimmed.equals("none")) {
                continue;
            }
            if (!StopWords.BUNDLED.contains(trimmed)) {
                throw new IllegalArgumentException("stopWords: no list for '" + language + "' (bundled: "
                        + String.join(", ", StopWords.BUNDLED) + ", or none)");
            }
            stopWords.add(trimmed);
        }
        return new PgVectorSettings(
                config.getString(PgVectorOptions.DATA_SOURCE).filter(s -> !s.isBlank()),
                config.getString(PgVectorOptions.JDBC_URL).filter(s -> !s.isBlank()),
                config.getString(PgVectorOptions.USER).filter(s -> !s.isBlank()),
                config.getString(PgVectorOptions.PASSWORD),
                config.getInt(PgVectorOptions.POOL_SIZE),
                config.requireString(PgVectorOptions.TABLE),
                ChunkColumns.parse(config.getList(PgVectorOptions.COLUMNS)),
                widths,
                DistanceMetric.of(config.requireString(PgVectorOptions.METRIC)),
                config.getInt(PgVectorOptions.EF_SEARCH),
                config.getInt(PgVectorOptions.NUM_CANDIDATES_FACTOR),
                config.getInt(PgVectorOptions.MIN_CANDIDATES),
                IterativeScan.of(config.requireString(PgVectorOptions.ITERATIVE_SCAN)),
                config.getInt(PgVectorOptions.MAX_SCAN_TUPLES),
                config.getInt(PgVectorOptions.EXACT_SEARCH_MAX_ROWS),
                config.getInt(PgVectorOptions.EXACT_SEARCH_RECHECK_MILLIS),
                config.getInt(PgVectorOptions.HNSW_M),
                config.getInt(PgVectorOptions.HNSW_EF_CONSTRUCTION),
                config.getInt(PgVectorOptions.UPSERT_BATCH_SIZE),
                config.getBoolean(PgVectorOptions.NULLABLE_EMBEDDINGS),
                config.getBoolean(PgVectorOptions.FULL_TEXT),
                config.requireString(PgVectorOptions.FULL_TEXT_LANGUAGE),
                stopWords,
                config.getBoolean(PgVectorOptions.ANY_TERM_FALLBACK),
                config.getBoolean(PgVectorOptions.ENSURE_SCHEMA),
                config.getList(PgVectorOptions.TENANT_PARTITIONS).stream().map(String::trim).toList());
    }

    /** A JDBC URL fit for an error message: the value of a {@code password=} parameter hidden. */
    static String redacted(String jdbcUrl) {
        return jdbcUrl.replaceAll("password=[^&]*", "password=******");
    }
}
