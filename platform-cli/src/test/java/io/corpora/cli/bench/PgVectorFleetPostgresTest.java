package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.corpora.plugin.loader.PluginManager;
import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.TestEmbedder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;
import org.junit.jupiter.api.io.TempDir;

/** A tiny partitioned fleet built by the bench through the real pgvector store plugin, on the real PostgreSQL. */
@EnabledIfEnvironmentVariable(named = "CORPORA_TEST_PG_URL", matches = ".+", disabledReason = "CORPORA_TEST_PG_URL is not set: no"
        + " PostgreSQL with pgvector to build the fleet in (run scripts/install-pgvector.sh and export the URL it prints)")
class PgVectorFleetPostgresTest {

    private static final Path PLUGINS = Path.of(System.getProperty("corpora.plugins.dir", "target/plugins"));
    private static final int DIMENSION = 8;
    /** Every chunk's text holds this word ("passage i"). */
    private static final List<String> QUERIES = List.of("passage");

    @TempDir
    Path work;

    @Test
    void eachLargeTenantGetsAPartitionAndSearchesOnlyItsOwnChunks() throws Exception {
        assumeTrue(Files.isDirectory(PLUGINS.resolve("store-pgvector")), "no plugin bundles at " + PLUGINS.toAbsolutePath()
                + " (built by the plugin-bundles profile; or pass -Dcorpora.plugins.dir)");
        String url = System.getenv(BenchCommand.PG_URL_VARIABLE);
        PluginRegistry registry = PluginManager.load(PLUGINS);
        Profile shape = Profile.QUICK.resized(6, 40); // 40, 20, 13, 10, 8, 7 chunks
        TestEmbedder model = TestEmbedder.ofDimension(DIMENSION);
        PgVectorFleet fleet = new PgVectorFleet(shape, 2, url, SyntheticCorpus.of(20, DIMENSION, 19, QUERIES), model, registry, work, System.err);
        ExecutorService legThreads = Executors.newCachedThreadPool();
        String table = PgVectorFleet.tableName(PgVectorFleet.Layout.PARTITIONED, "t" + Long.toString(System.nanoTime(), 36));
        try {
            Fleet.Written written = fleet.build(PgVectorFleet.Layout.PARTITIONED, table);
            assertEquals(shape.totalChunks(), written.chunks());
            try (Connection connection = PgVectorFleet.connect(url)) {
                assertTrue(exists(connection, "SELECT 1 FROM pg_partitioned_table WHERE partrelid = ?::regclass", table), "partitioned by tenant");
                assertEquals(Set.of(table + "_tenant_0", table + "_tenant_1", table + "_default"), strings(connection,
                        "SELECT c.relname FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = ?::regclass", table));
                assertEquals(Set.of("t1"), strings(connection, "SELECT DISTINCT tenant FROM " + table + "_tenant_0"));
                assertTrue(fleet.tableBytes(table) > 0, "the size sums the partitions (the parent holds no rows)");
                assertEquals(Set.of("t3", "t4", "t5", "t6"), strings(connection, "SELECT DISTINCT tenant FROM " + table + "_default"));
            }
            try (VectorStore store = fleet.open(PgVectorFleet.Layout.PARTITIONED, table)) {
                for (Fleet.Tenant tenant : written.measured()) {
                    List<ScoredChunk> hits = store.search(tenant.namespace(), SearchRequest.vector(tenant.vectors().get(0), 10, MetadataFilter.all(),
                            null, null));
                    assertEquals(Math.min(10, tenant.size()), hits.size(), tenant.bucket());
                    for (ScoredChunk hit : hits) {
                        assertEquals(tenant.namespace().tenant(), hit.chunk().metadata().get(ReservedKeys.TENANT), "a chunk of another tenant");
                    }
                    // The bench's hybrid cell: Corpora's default retrieval through this store, both legs; the keyword
                    // leg matches the query's word in every chunk, and a query matching none fails the run's check.
                    Systems.Search hybrid = Systems.corporaHybrid(store, tenant.namespace(), model, QUERIES, List.of(tenant.vectors().get(0)), legThreads);
                    assertEquals(Math.min(10, tenant.size()), hybrid.top(0, null).size(), tenant.bucket());
                    Systems.Search keyword = Systems.corporaKeyword(store, tenant.namespace(), model, QUERIES);
                    assertEquals(Math.min(10, tenant.size()), keyword.top(0, null).size(), "every chunk holds the word 'passage'");
                    PgVectorFleet.requireKeywordMatches(keyword, 1, tenant);
                    Systems.Search unmatched = Systems.corporaKeyword(store, tenant.namespace(), model, List.of("zyzzyva"));
                    assertTrue(unmatched.top(0, null).isEmpty());
                    assertThrows(IllegalStateException.class, () -> PgVectorFleet.requireKeywordMatches(unmatched, 1, tenant));
                    for (int breadth : List.of(Systems.TOP_K, Systems.CORPORA_CANDIDATES)) {
                        try (RawPgVector raw = new RawPgVector(url, table, tenant.namespace().tenant(), PgVectorFleet.rawSession(),
                                List.of(tenant.vectors().get(0)), breadth)) {
                            assertEquals(1.0, Fleet.overlap(raw.top(0, null), Fleet.exact(tenant, tenant.vectors().get(0), false)),
                                    "raw SQL exploring " + breadth + " finds the " + tenant.bucket() + " tenant's exact top 10");
                        }
                    }
                }
            }
        } finally {
            legThreads.shutdownNow();
            fleet.drop(table);
        }
        try (Connection connection = PgVectorFleet.connect(url)) {
            assertFalse(exists(connection, "SELECT 1 WHERE to_regclass(?) IS NOT NULL", table), "the run's table is dropped");
        }
    }

    private static boolean exists(Connection connection, String sql, String value) throws Exception {
        return !strings(connection, sql, value).isEmpty();
    }

    /** The first column of every row, the parameters bound as strings. */
    private static Set<String> strings(Connection connection, String sql, String... parameters) throws Exception {
        try (PreparedStatement statement = connection.prepareStatement(sql)) {
            for (int i = 0; i < parameters.length; i++) {
                statement.setString(i + 1, parameters[i]);
            }
            Set<String> found = new HashSet<>();
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    found.add(rows.getString(1));
                }
            }
            return found;
        }
    }
}
