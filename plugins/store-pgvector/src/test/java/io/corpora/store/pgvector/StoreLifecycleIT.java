package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.ServiceLoader;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/** Batching, validation, start-up checks, the JNDI route and the built-in pool, on the real database. */
class StoreLifecycleIT {

    private static final String TABLE = "it_lifecycle";

    @BeforeEach
    void freshTable() throws Exception {
        TestDatabase.url();
        TestDatabase.dropTable(TABLE);
    }

    private static EmbeddedChunk row(String id, String text, float... vector) {
        return new EmbeddedChunk(new Chunk(id, "doc", 0, text, List.of(), Map.of()), vector.length == 0 ? null : vector);
    }

    @Test
    void theProviderIsDiscoveredByServiceLoader() {
        assertTrue(ServiceLoader.load(VectorStoreProvider.class).stream().anyMatch(p -> p.get().name().equals("pgvector")));
    }

    @Test
    void largeUpsertsAreBatchedAndDuplicatesAcrossBatchesKeepTheLast() {
        Namespace ns = Namespace.of("batches");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2", PgVectorOptions.UPSERT_BATCH_SIZE, "7"))) {
            List<EmbeddedChunk> rows = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                rows.add(row("c" + (i % 40), "version " + i, 1, i));
            }
            store.upsert(ns, rows);
            assertEquals(40, store.count(ns, MetadataFilter.all()));
            Map<String, String> texts = new java.util.HashMap<>();
            String after = null;
            do {
                var page = store.list(ns, after, 9);
                page.chunks().forEach(c -> texts.put(c.id(), c.text()));
                after = page.nextAfterId();
            } while (after != null);
            for (int i = 0; i < 10; i++) {
                assertEquals("version " + (40 + i), texts.get("c" + i), "the later duplicate wins for c" + i);
            }
            assertEquals("version 39", texts.get("c39"));
        }
    }

    @Test
    void aFailedBatchLeavesNothingHalfWritten() {
        Namespace ns = Namespace.of("atomic");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2", PgVectorOptions.UPSERT_BATCH_SIZE, "2"))) {
            List<EmbeddedChunk> rows = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                rows.add(row("c" + i, "ok", 1, i));
            }
            rows.add(row("bad", "text with a NUL \u0000 PostgreSQL refuses", 1, 1));
            PgVectorStoreException e = assertThrows(PgVectorStoreException.class, () -> store.upsert(ns, rows));
            assertTrue(e.getMessage().contains(TABLE) && e.getMessage().contains("upsert"), e.getMessage());
            assertEquals(0, store.count(ns, MetadataFilter.all()), "the earlier batches were rolled back with the failing one");
        }
    }

    @Test
    void chunksWithoutEmbeddingsOrOfAnotherWidthAreRefusedClearly() {
        Namespace ns = Namespace.of("refusals");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "3"))) {
            IllegalArgumentException missing = assertThrows(IllegalArgumentException.class, () -> store.upsert(ns, List.of(row("a", "t"))));
            assertTrue(missing.getMessage().contains("nullableEmbeddings"), missing.getMessage());
            IllegalArgumentException width = assertThrows(IllegalArgumentException.class, () -> store.upsert(ns, List.of(row("a", "t", 1, 2))));
            assertTrue(width.getMessage().contains("2-dimensional") && width.getMessage().contains("[3]"), width.getMessage());
            assertEquals(0, store.count(ns, MetadataFilter.all()));
        }
    }

    @Test
    void startingWithoutTheTableNamesItAndTheRemedy() {
        for (String fullText : List.of("true", "false")) {
            PgVectorStoreException e = assertThrows(PgVectorStoreException.class, () -> TestDatabase.open("it_no_such_table",
                    Map.of(PgVectorOptions.ENSURE_SCHEMA, "false", PgVectorOptions.FULL_TEXT, fullText)));
            assertTrue(e.getMessage().startsWith("table it_no_such_table does not exist") && e.getMessage().contains("ensureSchema=true"),
                    "fullText=" + fullText + ": " + e.getMessage());
        }
    }

    @Test
    void aColumnOverrideThatDoesNotMatchTheTableFailsAtStart() {
        TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2")).close();
        PgVectorStoreException e = assertThrows(PgVectorStoreException.class, () -> TestDatabase.open(TABLE, Map.of(
                PgVectorOptions.DIMENSION, "2", PgVectorOptions.ENSURE_SCHEMA, "false", PgVectorOptions.COLUMNS, "text=body")));
        assertTrue(e.getMessage().contains("body"), e.getMessage());
    }

    @Test
    void ensureSchemaIsIdempotent() {
        for (int i = 0; i < 3; i++) {
            TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2")).close();
        }
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2"))) {
            store.checkHealth();
        }
    }

    @Test
    void aContainerDataSourceIsFoundByJndiNameAndLeftOpen() throws Exception {
        PGSimpleDataSource container = new PGSimpleDataSource();
        container.setURL(TestDatabase.url());
        PluginContext context = new PluginContext() {
            @Override
            public Path dataDirectory() {
                return Path.of("target");
            }

            @Override
            public Logger logger() {
                return Logger.getLogger("test");
            }

            @Override
            public Optional<DataSource> dataSource(String jndiName) {
                return jndiName.equals("jdbc/corpora") ? Optional.of(container) : Optional.empty();
            }
        };
        PgVectorStoreProvider provider = new PgVectorStoreProvider();
        Map<String, String> options = Map.of(PgVectorOptions.DATA_SOURCE, "jdbc/corpora", PgVectorOptions.TABLE, TABLE,
                PgVectorOptions.DIMENSION, "2", PgVectorOptions.ENSURE_SCHEMA, "true");
        try (VectorStore store = provider.create(context, TestDatabase.config(options))) {
            store.upsert(Namespace.of("jndi"), List.of(row("a", "t", 1, 0)));
            assertEquals(1, store.count(Namespace.of("jndi"), MetadataFilter.all()));
        }
        try (Connection stillUsable = container.getConnection()) {
            assertTrue(stillUsable.isValid(2));
        }
        var e = assertThrows(io.corpora.spi.config.InvalidConfigException.class, () -> provider.create(context, TestDatabase.config(
                Map.of(PgVectorOptions.DATA_SOURCE, "jdbc/missing", PgVectorOptions.TABLE, TABLE))));
        assertTrue(e.getMessage().contains("jdbc/missing"), e.getMessage());
    }

    @Test
    void thePoolIsBoundedAndReturnsCleanConnections() throws Exception {
        PGSimpleDataSource driver = new PGSimpleDataSource();
        driver.setURL(TestDatabase.url());
        try (ConnectionPool pool = new ConnectionPool(driver, 1, 300)) {
            int backend;
            try (Connection first = pool.borrow()) {
                backend = backendPid(first);
                first.setAutoCommit(false);
                try (Statement statement = first.createStatement()) {
                    statement.execute("SELECT set_config('statement_timeout', '4321', true)");
                }
                SQLException exhausted = assertThrows(SQLException.class, pool::borrow, "a second borrower waits, then gives up");
                assertTrue(exhausted.getMessage().contains("300 ms"), exhausted.getMessage());
                // returned mid-transaction: the pool rolls back and restores autocommit
            }
            try (Connection again = pool.borrow()) {
                assertEquals(backend, backendPid(again), "the physical connection is reused");
                assertTrue(again.getAutoCommit());
                try (Statement statement = again.createStatement(); ResultSet rows = statement.executeQuery("SHOW statement_timeout")) {
                    rows.next();
                    assertEquals("0", rows.getString(1), "the open transaction was rolled back, its SET LOCAL with it");
                }
            }
            Connection returned = pool.borrow();
            returned.close();
            assertTrue(returned.isClosed());
            assertThrows(SQLException.class, returned::createStatement, "a returned proxy cannot be used");
        }
    }

    @Test
    void searchesLeaveNoSessionSettingsBehind() throws Exception {
        Namespace ns = Namespace.of("session");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2", PgVectorOptions.POOL_SIZE, "1",
                PgVectorOptions.EXACT_SEARCH_MAX_ROWS, "0", PgVectorOptions.EF_SEARCH, "77"))) {
            store.upsert(ns, List.of(row("a", "t", 1, 0)));
            store.search(ns, io.corpora.spi.store.SearchRequest.vector(new float[] {1, 0}, 1, MetadataFilter.all(), null, null));
            assertFalse(store.toString().isEmpty());
            try (Connection pooled = store.connectionsForTest().open(); Statement statement = pooled.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT current_setting('hnsw.ef_search'), current_setting('hnsw.iterative_scan')")) {
                rows.next();
                assertEquals("40", rows.getString(1), "ef_search was SET LOCAL");
                assertEquals("off", rows.getString(2), "iterative_scan was SET LOCAL");
            }
        }
    }

    private static int backendPid(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery("SELECT pg_backend_pid()")) {
            rows.next();
            return rows.getInt(1);
        }
    }
}
