package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The shipped Flyway migrations, applied by hand to fresh schemas of the real database: they serve the store, they make
 * the table {@code ensureSchema} makes, and a table of the first migration's shape is brought up to date in place.
 */
class MigrationIT {

    private static final List<String> SCHEMAS = List.of("it_migration", "it_ensured", "it_upgrade");

    @AfterEach
    void dropSchemas() throws SQLException {
        if (TestDatabase.configured()) {
            try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
                for (String schema : SCHEMAS) {
                    statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
                }
            }
        }
    }

    @Test
    void theMigrationsAppliedByHandServeTheStore() throws Exception {
        migrate("it_migration", SchemaStatementsTest.migrations());
        try (PgVectorStore store = TestDatabase.open("it_migration.corpora_chunks", Map.of(PgVectorOptions.ENSURE_SCHEMA, "false"))) {
            Namespace ns = Namespace.of("migrated");
            store.upsert(ns, List.of(chunk("c", "migrated lodging text")));
            assertEquals(1, store.search(ns, SearchRequest.vector(vector(), 3, MetadataFilter.all(), null, null)).size());
            assertEquals(1, store.search(ns, SearchRequest.keyword("lodging", 3, MetadataFilter.all(), null, null)).size());
        }
    }

    @Test
    void theMigrationsMakeTheTableEnsureSchemaMakes() throws Exception {
        migrate("it_migration", SchemaStatementsTest.migrations());
        createSchema("it_ensured");
        try (PgVectorStore store = TestDatabase.open("it_ensured.corpora_chunks", Map.of())) {
            assertTrue(store.capabilities().contains(io.corpora.spi.store.StoreCapability.KEYWORD_SEARCH));
        }
        List<String> migrated = catalog("it_migration");
        assertEquals(migrated, catalog("it_ensured"));
        assertTrue(migrated.contains("column embedding vector(384) storage m generated - "), migrated.toString());
        assertTrue(migrated.contains("column index_tsv tsvector storage x generated s to_tsvector('english'::regconfig, index_text)"),
                migrated.toString());
        assertTrue(migrated.stream().noneMatch(s -> s.contains("corpora_chunks_fts_english_idx")), migrated.toString());
    }

    @Test
    void aTableOfTheFirstMigrationIsUpgradedInPlaceAndKeepsItsRows() throws Exception {
        migrate("it_upgrade", SchemaStatementsTest.migrations().subList(0, 1));
        String table = "it_upgrade.corpora_chunks";
        Namespace ns = Namespace.of("before");
        // The keyword leg refuses a table without its stored column, and says how to add it.
        PgVectorStoreException refused = assertThrows(PgVectorStoreException.class,
                () -> TestDatabase.open(table, Map.of(PgVectorOptions.ENSURE_SCHEMA, "false")).close());
        assertTrue(refused.getMessage().contains("has no column index_tsv")
                && refused.getMessage().contains("V2__inline_vectors_and_stored_tsvector.sql")
                && refused.getMessage().contains("ensureSchema=true"), refused.getMessage());
        // Rows written the way the first schema held them (without the keyword leg, which needs the column).
        try (PgVectorStore before = TestDatabase.open(table, Map.of(PgVectorOptions.ENSURE_SCHEMA, "false", PgVectorOptions.FULL_TEXT, "false"))) {
            before.upsert(ns, List.of(chunk("a", "harbour lodging for sailors"), chunk("b", "mountain huts")));
        }
        try (PgVectorStore upgraded = TestDatabase.open(table, Map.of())) {
            List<ScoredChunk> hits = upgraded.search(ns, SearchRequest.keyword("lodging", 5, MetadataFilter.all(), null, null));
            assertEquals(List.of("a#0"), hits.stream().map(h -> h.chunk().id()).toList());
            upgraded.upsert(ns, List.of(chunk("c", "lodging after the upgrade")));
            assertEquals(2, upgraded.search(ns, SearchRequest.keyword("lodging", 5, MetadataFilter.all(), null, null)).size());
            assertEquals(3, upgraded.search(ns, SearchRequest.vector(vector(), 5, MetadataFilter.all(), null, null)).size());
        }
        createSchema("it_migration");
        migrate("it_migration", SchemaStatementsTest.migrations());
        assertEquals(catalog("it_migration"), catalog("it_upgrade"));
    }

    /**
     * {@code CREATE INDEX IF NOT EXISTS} and {@code ADD COLUMN IF NOT EXISTS} take their table lock before they find the
     * index or column there, so each would wait for this open write (and make readers wait behind it); the store asks
     * the catalog first and runs only what is missing.
     */
    @Test
    void aStoreOpensOnAnUpToDateTableWithoutWaitingForAnOpenWrite() throws Exception {
        migrate("it_migration", SchemaStatementsTest.migrations());
        ExecutorService opener = Executors.newSingleThreadExecutor();
        try (Connection writer = TestDatabase.connect(); Statement statement = writer.createStatement()) {
            writer.setAutoCommit(false);
            statement.execute("INSERT INTO it_migration.corpora_chunks (tenant, partition_key, chunk_id, document_id, chunk_index, text,"
                    + " index_text) VALUES ('writer', '_default', 'w#0', 'w', 0, 'an open write', 'an open write')");
            try {
                Future<?> open = opener.submit(() -> {
                    TestDatabase.open("it_migration.corpora_chunks", Map.of()).close();
                    return null;
                });
                open.get(60, TimeUnit.SECONDS);
            } finally {
                writer.rollback();
            }
        } finally {
            opener.shutdownNow();
        }
    }

    @Test
    void aStoredVectorOfAnotherLanguageIsRefusedWithTheFix() throws Exception {
        migrate("it_migration", SchemaStatementsTest.migrations());
        PgVectorStoreException refused = assertThrows(PgVectorStoreException.class, () -> TestDatabase.open("it_migration.corpora_chunks",
                Map.of(PgVectorOptions.FULL_TEXT_LANGUAGE, "portuguese")).close());
        assertTrue(refused.getMessage().contains("GENERATED ALWAYS AS (to_tsvector('portuguese'::regconfig, index_text)) STORED")
                && refused.getMessage().contains("found to_tsvector('english'::regconfig, index_text)")
                && refused.getMessage().contains("DROP COLUMN index_tsv"), refused.getMessage());
        // ... as is a plain column of that name, which nothing would keep in step with the text.
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("ALTER TABLE it_migration.corpora_chunks DROP COLUMN index_tsv");
            statement.execute("ALTER TABLE it_migration.corpora_chunks ADD COLUMN index_tsv tsvector");
        }
        refused = assertThrows(PgVectorStoreException.class,
                () -> TestDatabase.open("it_migration.corpora_chunks", Map.of(PgVectorOptions.ENSURE_SCHEMA, "false")).close());
        assertTrue(refused.getMessage().contains("found a plain column"), refused.getMessage());
    }

    private static void createSchema(String schema) throws SQLException {
        TestDatabase.url();
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP SCHEMA IF EXISTS " + schema + " CASCADE");
            statement.execute("CREATE SCHEMA " + schema);
        }
    }

    private static void migrate(String schema, List<Path> migrations) throws Exception {
        createSchema(schema);
        List<String> statements = new ArrayList<>();
        for (Path migration : migrations) {
            statements.addAll(SchemaStatementsTest.statements(migration));
        }
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            statement.execute("SET search_path = " + schema + ", public");
            for (String ddl : statements) {
                statement.execute(ddl);
            }
        }
    }

    /** The chunk table of a schema as the catalog holds it: columns with type, storage and generation; indexes. */
    private static List<String> catalog(String schema) throws SQLException {
        List<String> lines = new ArrayList<>();
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            try (ResultSet rows = statement.executeQuery("SELECT a.attname, format_type(a.atttypid, a.atttypmod), a.attstorage, a.attnotnull, "
                    + "coalesce(nullif(a.attgenerated, ''), '-'), coalesce(pg_get_expr(d.adbin, d.adrelid), '') FROM pg_attribute a "
                    + "LEFT JOIN pg_attrdef d ON d.adrelid = a.attrelid AND d.adnum = a.attnum "
                    + "WHERE a.attrelid = '" + schema + ".corpora_chunks'::regclass AND a.attnum > 0 AND NOT a.attisdropped ORDER BY a.attname")) {
                while (rows.next()) {
                    String expression = rows.getString(5).equals("s") ? rows.getString(6) : "";
                    lines.add("column " + rows.getString(1) + " " + rows.getString(2) + " storage " + rows.getString(3)
                            + (rows.getBoolean(4) ? " not null" : "") + " generated " + rows.getString(5) + " " + expression);
                }
            }
            try (ResultSet rows = statement.executeQuery("SELECT indexdef FROM pg_indexes WHERE schemaname = '" + schema
                    + "' AND tablename = 'corpora_chunks' ORDER BY indexname")) {
                while (rows.next()) {
                    lines.add(rows.getString(1).replace(schema + ".", "<schema>."));
                }
            }
        }
        return lines;
    }

    private static EmbeddedChunk chunk(String document, String text) {
        return new EmbeddedChunk(new Chunk(document + "#0", document, 0, text, List.of(), Map.of()), vector());
    }

    private static float[] vector() {
        float[] vector = new float[384];
        Arrays.fill(vector, 0.05f);
        return vector;
    }
}
