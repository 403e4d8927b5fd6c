package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A purge on the real Lucene and pgvector stores removes everything of the tenant: its default partition, a partition
 * still declared, one dropped from the definition before the purge (the registry still lists its documents), and one
 * nobody names at all (orphaned chunks); in pgvector, rows in a table an earlier configuration wrote too. Another tenant
 * keeps all of its data.
 */
class TenantStorePurgeTest {

    private static final String TENANT = "acme";
    private static final List<Namespace> WRITTEN = List.of(Namespace.of(TENANT), Namespace.of(TENANT, "legal"),
            Namespace.of(TENANT, "dropped"), Namespace.of(TENANT, "unnamed"));
    /** What the server passes: the definition's partitions ("legal") and the registry's ("dropped", and the default). */
    private static final List<String> KNOWN_PARTITIONS = List.of("legal", "dropped", Namespace.DEFAULT_PARTITION);
    private static final Namespace OTHER = Namespace.of("other", "legal");
    private static PluginRegistry plugins;

    @TempDir
    Path data;

    @BeforeAll
    static void load() {
        plugins = PluginManager.load(Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins")));
    }

    @Test
    void onLuceneNoDirectoryOfTheTenantRemains() throws Exception {
        Path root = data.resolve("lucene");
        try (VectorStore lucene = plugins.create(VectorStoreProvider.class, "lucene", PluginContext.of(root, "test"), Map.of())) {
            WRITTEN.forEach(namespace -> write(lucene, namespace));
            write(lucene, OTHER);
            assertTrue(Files.isDirectory(root.resolve(TENANT).resolve("unnamed")));

            List<Namespace> oneByOne = TenantStorePurge.purge(TENANT, KNOWN_PARTITIONS, List.of(lucene));

            assertEquals(List.of(), oneByOne, "the store dropped the tenant whole");
            assertFalse(Files.exists(root.resolve(TENANT)), "no directory of the tenant is left");
            for (Namespace namespace : WRITTEN) {
                assertEquals(0, lucene.count(namespace, MetadataFilter.all()), namespace.toString());
            }
            assertEquals(1, lucene.count(OTHER, MetadataFilter.all()), "another tenant keeps its chunks");
            write(lucene, Namespace.of(TENANT, "legal"));
            assertEquals(1, lucene.count(Namespace.of(TENANT, "legal"), MetadataFilter.all()), "the store still serves afterwards");
        }
    }

    @Test
    void onPgvectorNoRowOfTheTenantRemainsInAnyTable() throws Exception {
        String url = System.getenv("CORPORA_TEST_PG_URL");
        assumeTrue(url != null, "CORPORA_TEST_PG_URL is not set: PostgreSQL run skipped");
        String earlier = "purge_test_earlier";
        String current = "purge_test_current";
        dropTables(url, earlier, current);
        try (VectorStore earlierStore = pgvector(url, earlier); VectorStore currentStore = pgvector(url, current)) {
            WRITTEN.forEach(namespace -> write(earlierStore, namespace));
            WRITTEN.forEach(namespace -> write(currentStore, namespace));
            write(currentStore, OTHER);
            assertEquals(4, rowsOf(url, earlier, TENANT));

            TenantStorePurge.purge(TENANT, KNOWN_PARTITIONS, List.of(currentStore, earlierStore));

            assertEquals(0, rowsOf(url, current, TENANT));
            assertEquals(0, rowsOf(url, earlier, TENANT));
            assertEquals(1, rowsOf(url, current, "other"), "another tenant keeps its rows");
        } finally {
            dropTables(url, earlier, current);
        }
    }

    @Test
    void aStoreThatCannotDropATenantWholeGetsEveryKnownNamespace() throws Exception {
        VectorStore reference = new io.corpora.testkit.ReferenceVectorStore(io.corpora.spi.VectorSimilarity.COSINE, 4);
        WRITTEN.forEach(namespace -> write(reference, namespace));

        List<Namespace> oneByOne = TenantStorePurge.purge(TENANT, KNOWN_PARTITIONS, List.of(reference));

        assertEquals(List.of(Namespace.of(TENANT), Namespace.of(TENANT, "legal"), Namespace.of(TENANT, "dropped")), oneByOne);
        assertEquals(0, reference.count(Namespace.of(TENANT, "dropped"), MetadataFilter.all()), "a partition dropped from the definition");
    }

    private VectorStore pgvector(String url, String table) {
        return plugins.create(VectorStoreProvider.class, "pgvector", PluginContext.of(data.resolve(table), "test"),
                Map.of("jdbcUrl", url, "table", table, "dimension", "4", "ensureSchema", "true"));
    }

    private static void write(VectorStore store, Namespace namespace) {
        store.upsert(namespace, List.of(new EmbeddedChunk(new Chunk("policy:0", "policy", 0, "Refunds within thirty days.", List.of(),
                Map.of()), new float[] {1, 0, 0, 0})));
    }

    private static long rowsOf(String url, String table, String tenant) throws Exception {
        try (Connection connection = connect(url);
             PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM " + table + " WHERE tenant = ?")) {
            count.setString(1, tenant);
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return rows.getLong(1);
            }
        }
    }

    private static void dropTables(String url, String... tables) throws Exception {
        try (Connection connection = connect(url); Statement statement = connection.createStatement()) {
            for (String table : tables) {
                statement.execute("DROP TABLE IF EXISTS " + table);
            }
        }
    }

    /**
     * This test's own driver, not DriverManager's: DriverManager loads its drivers once, through the context class loader
     * of the first caller, and a test before this one may have been a plugin call (the pgvector plugin's loader), whose
     * driver DriverManager then refuses to hand to this class.
     */
    private static Connection connect(String url) throws Exception {
        Connection connection = new org.postgresql.Driver().connect(url, new java.util.Properties());
        if (connection == null) {
            throw new IllegalArgumentException("not a PostgreSQL URL: " + url);
        }
        return connection;
    }
}
