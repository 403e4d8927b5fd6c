package io.corpora.store.pgvector;

import java.util.ArrayList;
import java.util.List;

/**
 * The DDL of the chunk table for given settings: the statements {@code ensureSchema} runs, the operator
 * prints with {@link PgVectorStore#schemaStatements()}, and the Flyway migrations hold for the defaults.
 * Every statement is idempotent ({@code IF NOT EXISTS}, {@code IF EXISTS}), so the same list creates a table and
 * brings one made by an earlier version up to date.
 */
final class ChunkSchema {

    private final PgVectorSettings settings;
    private final ChunkColumns c;

    ChunkSchema(PgVectorSettings settings) {
        this.settings = settings;
        this.c = settings.columns();
    }

    /** The text-search vector of a row's index text, as the stored column computes it. */
    static String tsvectorExpression(PgVectorSettings settings) {
        return "to_tsvector(" + settings.textSearchConfig() + ", " + settings.columns().indexText() + ")";
    }

    /** The embedding as the HNSW index of this width sees it (a cast for mixed-width tables). */
    static String indexedEmbedding(PgVectorSettings settings, int width) {
        String column = settings.columns().embedding();
        return settings.mixedDimensions() ? "(" + column + "::vector(" + width + "))" : column;
    }

    /**
     * One statement and, where it has one, a query answering {@code true} when what the statement makes already exists.
     * {@code ensureSchema} runs the query first: {@code IF NOT EXISTS} is checked only after the statement has taken its
     * table lock (SHARE for an index, ACCESS EXCLUSIVE for a column), so a server starting on an up-to-date table would
     * otherwise wait for open writes, or make every reader wait behind it.
     */
    record Ddl(String sql, String alreadyDone) {}

    /** An index of the chunk table: its name, and what follows {@code ON <table>} in its definition. */
    private record Index(String name, String definition) {}

    List<String> statements(boolean concurrently) {
        return ddl(concurrently).stream().map(Ddl::sql).toList();
    }

    List<Ddl> ddl(boolean concurrently) {
        if (concurrently && settings.partitionedByTenant()) {
            throw new IllegalStateException("PostgreSQL cannot CREATE INDEX CONCURRENTLY on a partitioned table ("
                    + PgVectorOptions.TENANT_PARTITIONS + " is set): create the indexes on each partition concurrently by hand");
        }
        String table = settings.table();
        String base = PgVectorSettings.bareTableName(table);
        String schema = schemaPrefix(table);
        String create = concurrently ? "CREATE INDEX CONCURRENTLY IF NOT EXISTS " : "CREATE INDEX IF NOT EXISTS ";
        String embeddingType = settings.mixedDimensions() ? "vector" : "vector(" + settings.dimensions().get(0) + ")";
        List<Ddl> ddl = new ArrayList<>();
        ddl.add(new Ddl("CREATE EXTENSION IF NOT EXISTS vector", null));
        ddl.add(new Ddl("CREATE TABLE IF NOT EXISTS " + table + " (\n"
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
                + ")" + (settings.partitionedByTenant() ? " PARTITION BY LIST (" + c.tenant() + ")" : ""), exists(table)));
        ddl.addAll(tenantPartitions());
        // pgvector declares vector EXTERNAL: once a row outgrows ~2 KB (text, index text and metadata beside a 384-wide
        // vector do) the vector is what moves to TOAST, and an exact search then fetches every row's vector from there
        // (2.2x slower on SciFact's text). MAIN keeps it in the row while the row fits a page and moves the text out.
        ddl.add(new Ddl("ALTER TABLE " + table + " ALTER COLUMN " + c.embedding() + " SET STORAGE MAIN",
                "SELECT attstorage = 'm' FROM pg_attribute WHERE attrelid = to_regclass(" + literal(table) + ") AND attname = "
                        + literal(c.embedding())));
        if (settings.fullText()) {
            // Stored, so the keyword leg ranks rows without parsing their text again (it parsed it once per query word).
            ddl.add(new Ddl("ALTER TABLE " + table + " ADD COLUMN IF NOT EXISTS " + c.indexVector() + " tsvector GENERATED ALWAYS AS ("
                    + tsvectorExpression(settings) + ") STORED", "SELECT EXISTS (SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass("
                    + literal(table) + ") AND attname = " + literal(c.indexVector()) + " AND NOT attisdropped)"));
        }
        List<Index> indexes = new ArrayList<>();
        indexes.add(new Index(base + "_document_idx", " (" + c.tenant() + ", " + c.partition() + ", " + c.document() + ")"));
        indexes.add(new Index(base + "_embedder_idx", " (" + c.tenant() + ", " + c.partition() + ", " + c.embedder() + ")"));
        indexes.add(new Index(base + "_metadata_idx", " USING gin (" + c.metadata() + " jsonb_path_ops)" + NO_PENDING_LIST));
        String with = " WITH (m = " + settings.hnswM() + ", ef_construction = " + settings.hnswEfConstruction() + ")";
        String metric = settings.metric().optionValue;
        if (settings.mixedDimensions()) {
            for (int width : settings.dimensions()) {
                indexes.add(new Index(base + "_embedding_" + width + "_" + metric + "_idx", " USING hnsw ("
                        + indexedEmbedding(settings, width) + " " + settings.metric().opclass + ")" + with
                        + " WHERE vector_dims(" + c.embedding() + ") = " + width));
            }
        } else {
            indexes.add(new Index(base + "_embedding_" + metric + "_idx", " USING hnsw (" + c.embedding() + " "
                    + settings.metric().opclass + ")" + with));
        }
        if (settings.fullText()) {
            indexes.add(new Index(base + "_" + c.indexVector() + "_idx", " USING gin (" + c.indexVector() + ")" + NO_PENDING_LIST));
        }
        for (Index index : indexes) {
            ddl.add(new Ddl(create + index.name() + " ON " + table + index.definition(), exists(schema + index.name())));
        }
        for (Index index : indexes) {
            if (index.definition().endsWith(NO_PENDING_LIST)) {
                ddl.add(noPendingList(schema + index.name()));
            }
        }
        if (settings.fullText()) {
            // The expression index of earlier versions, superseded by the stored column's.
            String superseded = schema + base + "_fts_" + settings.fullTextLanguage() + "_idx";
            ddl.add(new Ddl((concurrently ? "DROP INDEX CONCURRENTLY IF EXISTS " : "DROP INDEX IF EXISTS ") + superseded,
                    "SELECT to_regclass(" + literal(superseded) + ") IS NULL"));
        }
        return List.copyOf(ddl);
    }

    /**
     * GIN's pending list (fastupdate, on by default) defers index insertions to a list every search reads in full until
     * a VACUUM merges it; with autovacuum behind or off, the planner then prices the GIN index out and tests each term
     * against each row's tsvector instead (keyword statements of 0.25–1.45 s on a 2,200-row tenant, store README,
     * "Keyword search and GIN's pending list"). Off, each write updates the index itself: searches stay fast, writes cost more.
     */
    private static final String PENDING_LIST_OFF = "(fastupdate = off)";
    private static final String NO_PENDING_LIST = " WITH " + PENDING_LIST_OFF;

    /**
     * Turns the pending list off on a GIN index an earlier version made with it: the index itself, or on a partitioned
     * table each partition's index (PostgreSQL sets no storage parameter on a partitioned index). Entries already
     * pending stay until the table's next VACUUM or {@code gin_clean_pending_list}.
     */
    private Ddl noPendingList(String index) {
        String lacking = "SELECT c.oid::regclass FROM pg_class c WHERE c.relkind = 'i' AND (c.oid = to_regclass(" + literal(index)
                + ") OR c.oid IN (SELECT inhrelid FROM pg_inherits WHERE inhparent = to_regclass(" + literal(index) + ")))"
                + " AND NOT coalesce(c.reloptions @> '{fastupdate=off}', false)";
        String sql = settings.partitionedByTenant()
                ? "DO $$DECLARE leaf regclass; BEGIN FOR leaf IN " + lacking
                        + " LOOP EXECUTE format('ALTER INDEX %s SET " + PENDING_LIST_OFF + "', leaf); END LOOP; END$$"
                : "ALTER INDEX " + index + " SET " + PENDING_LIST_OFF;
        return new Ddl(sql, "SELECT NOT EXISTS (" + lacking + ")");
    }

    /** The probe of a table or index: {@code true} once the relation exists. */
    private static String exists(String relation) {
        return "SELECT to_regclass(" + literal(relation) + ") IS NOT NULL";
    }

    /**
     * One partition per listed tenant and a DEFAULT one for the rest (pgvector's guidance for many tenants with some large
     * ones): indexes created on the parent are created on every partition, so each listed tenant searches its own HNSW graph.
     */
    private List<Ddl> tenantPartitions() {
        if (!settings.partitionedByTenant()) {
            return List.of();
        }
        String table = settings.table();
        List<Ddl> ddl = new ArrayList<>();
        for (int i = 0; i < settings.tenantPartitions().size(); i++) {
            ddl.add(new Ddl("CREATE TABLE IF NOT EXISTS " + table + "_tenant_" + i + " PARTITION OF " + table + " FOR VALUES IN ("
                    + literal(settings.tenantPartitions().get(i)) + ")", exists(table + "_tenant_" + i)));
        }
        ddl.add(new Ddl("CREATE TABLE IF NOT EXISTS " + table + "_default PARTITION OF " + table + " DEFAULT", exists(table + "_default")));
        return ddl;
    }

    /** {@code schema.} of a schema-qualified table name, or nothing: indexes live in their table's schema. */
    private static String schemaPrefix(String table) {
        return table.substring(0, table.length() - PgVectorSettings.bareTableName(table).length());
    }

    /** A tenant id or a name as an SQL string literal (DDL takes no bind parameters; standard_conforming_strings is on since 9.1). */
    static String literal(String value) {
        return "'" + value.replace("'", "''") + "'";
    }
}
