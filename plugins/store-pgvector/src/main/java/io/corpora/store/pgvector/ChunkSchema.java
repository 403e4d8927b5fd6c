package io.corpora.store.pgvector;

import java.util.ArrayList;
import java.util.List;

/**
 * The DDL of the chunk table for given settings: the statements {@code ensureSchema} runs, the operator
 * prints with {@link PgVectorStore#schemaStatements()}, and the Flyway migration holds for the defaults.
 * Every statement is idempotent ({@code IF NOT EXISTS}).
 */
final class ChunkSchema {

    private final PgVectorSettings settings;
    private final ChunkColumns c;

    ChunkSchema(PgVectorSettings settings) {
        this.settings = settings;
        this.c = settings.columns();
    }

    /** The text-search vector expression; queries must spell it exactly like the GIN index does. */
    static String tsvector(PgVectorSettings settings) {
        return "to_tsvector('" + settings.fullTextLanguage() + "'::regconfig, " + settings.columns().indexText() + ")";
    }

    /** The embedding as the HNSW index of this width sees it (a cast for mixed-width tables). */
    static String indexedEmbedding(PgVectorSettings settings, int width) {
        String column = settings.columns().embedding();
        return settings.mixedDimensions() ? "(" + column + "::vector(" + width + "))" : column;
    }

    List<String> statements(boolean concurrently) {
        if (concurrently && settings.partitionedByTenant()) {
            throw new IllegalStateException("PostgreSQL cannot CREATE INDEX CONCURRENTLY on a partitioned table ("
                    + PgVectorOptions.TENANT_PARTITIONS + " is set): create the indexes on each partition concurrently by hand");
        }
        String table = settings.table();
        String base = PgVectorSettings.bareTableName(table);
        String create = concurrently ? "CREATE INDEX CONCURRENTLY IF NOT EXISTS " : "CREATE INDEX IF NOT EXISTS ";
        String embeddingType = settings.mixedDimensions() ? "vector" : "vector(" + settings.dimensions().get(0) + ")";
        List<String> ddl = new ArrayList<>();
        ddl.add("CREATE EXTENSION IF NOT EXISTS vector");
        ddl.add("CREATE TABLE IF NOT EXISTS " + table + " (\n"
                + "  " + c.tenant() + " text NOT NULL,\n"
                + "  " + c.partition() + " text NOT NULL,\n"
                + "  " + c.id() + " text COLLATE \"C\" NOT NULL,\n"
                + "  " + c.document() + " text NOT NULL,\n"
                + "  " + c.chunkIndex() + " integer NOT NULL,\n"
                + "  " + c.embedder() + " text,\n"
                + "  " + c.text() + " text NOT NULL,\n"
                + "  " + c.indexText() + " text NOT NULL,\n"
                + "  " + c.headings() + " text[] NOT NULL DEFAULT '{}',\n"
                + "  " + c.metadata() + " jsonb NOT NULL DEFAULT '{}',\n"
                + "  " + c.embedding() + " " + embeddingType + ",\n"
                + "  PRIMARY KEY (" + c.tenant() + ", " + c.partition() + ", " + c.id() + ")\n"
                + ")" + (settings.partitionedByTenant() ? " PARTITION BY LIST (" + c.tenant() + ")" : ""));
        ddl.addAll(tenantPartitions());
        ddl.add(create + base + "_document_idx ON " + table + " (" + c.tenant() + ", " + c.partition() + ", " + c.document() + ")");
        ddl.add(create + base + "_embedder_idx ON " + table + " (" + c.tenant() + ", " + c.partition() + ", " + c.embedder() + ")");
        ddl.add(create + base + "_metadata_idx ON " + table + " USING gin (" + c.metadata() + " jsonb_path_ops)");
        String with = " WITH (m = " + settings.hnswM() + ", ef_construction = " + settings.hnswEfConstruction() + ")";
        String metric = settings.metric().optionValue;
        if (settings.mixedDimensions()) {
            for (int width : settings.dimensions()) {
                ddl.add(create + base + "_embedding_" + width + "_" + metric + "_idx ON " + table + " USING hnsw ("
                        + indexedEmbedding(settings, width) + " " + settings.metric().opclass + ")" + with
                        + " WHERE vector_dims(" + c.embedding() + ") = " + width);
            }
        } else {
            ddl.add(create + base + "_embedding_" + metric + "_idx ON " + table + " USING hnsw (" + c.embedding() + " "
                    + settings.metric().opclass + ")" + with);
        }
        if (settings.fullText()) {
            ddl.add(create + base + "_fts_" + settings.fullTextLanguage() + "_idx ON " + table + " USING gin (" + tsvector(settings) + ")");
        }
        return List.copyOf(ddl);
    }

    /**
     * One partition per listed tenant and a DEFAULT one for the rest (pgvector's guidance for many tenants with some large
     * ones): indexes created on the parent are created on every partition, so each listed tenant searches its own HNSW graph.
     */
    private List<String> tenantPartitions() {
        if (!settings.partitionedByTenant()) {
            return List.of();
        }
        String table = settings.table();
        List<String> ddl = new ArrayList<>();
        for (int i = 0; i < settings.tenantPartitions().size(); i++) {
            ddl.add("CREATE TABLE IF NOT EXISTS " + table + "_tenant_" + i + " PARTITION OF " + table + " FOR VALUES IN ("
                    + literal(settings.tenantPartitions().get(i)) + ")");
        }
        ddl.add("CREATE TABLE IF NOT EXISTS " + table + "_default PARTITION OF " + table + " DEFAULT");
        return ddl;
    }

    /** A tenant id as an SQL string literal (DDL takes no bind parameters; standard_conforming_strings is on since 9.1). */
    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
