package io.corpora.cli.bench;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.cli.Options;
import io.corpora.cli.UsageException;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The pgvector part's pure decisions: which tenants get partitions, the store's configuration, the options. */
class PgVectorFleetTest {

    private static final String URL = "jdbc:postgresql://127.0.0.1:1/none";

    private static PgVectorFleet fleet(Profile shape, int partitions) {
        return new PgVectorFleet(shape, partitions, URL, null, null, null, null, System.err);
    }

    private static BenchCommand.PgVectorRun run(String url, String... args) {
        Options options = Options.parse(List.of(args), Set.of("jdbc-url", "pg-tenants", "pg-largest", "pg-partitions"), Set.of());
        return BenchCommand.PgVectorRun.from(options, Profile.QUICK, url);
    }

    @Test
    void theLargestTenantsGetThePartitions() {
        Profile shape = Profile.QUICK.resized(10, 1_000);
        List<String> partitioned = PgVectorFleet.partitionedTenants(shape, 3);
        assertEquals(List.of("t1", "t2", "t3"), partitioned);
        for (int rank = 4; rank <= shape.tenants(); rank++) {
            assertTrue(shape.sizeOf(rank) < shape.sizeOf(3), "an unlisted tenant is smaller than every listed one");
        }
        assertEquals(10, PgVectorFleet.partitionedTenants(shape, 50).size(), "no more partitions than tenants");
    }

    @Test
    void onlyThePartitionedLayoutAsksTheStoreForPartitions() {
        PgVectorFleet fleet = fleet(Profile.QUICK.resized(10, 1_000), 2);
        Map<String, String> shared = fleet.storeConfig(PgVectorFleet.Layout.SHARED, "bench_shared_x", 384);
        Map<String, String> partitioned = fleet.storeConfig(PgVectorFleet.Layout.PARTITIONED, "bench_partitioned_x", 384);
        assertFalse(shared.containsKey("tenantPartitions"));
        assertEquals("t1,t2", partitioned.get("tenantPartitions"));
        for (Map<String, String> config : List.of(shared, partitioned)) {
            assertEquals("true", config.get("ensureSchema"));
            assertEquals("384", config.get("dimension"));
            assertEquals(String.valueOf(PgVectorFleet.EXACT_SEARCH_MAX_ROWS), config.get("exactSearchMaxRows"));
            assertEquals(PgVectorFleet.rawSession().get("hnsw.iterative_scan"), config.get("iterativeScan"), "raw SQL runs as the store searches");
            assertEquals(PgVectorFleet.rawSession().get("hnsw.ef_search"), config.get("hnsw.efSearch"));
        }
        assertEquals("bench_partitioned_x", partitioned.get("table"));
    }

    @Test
    void everyRunAndLayoutHasATableOfItsOwn() {
        String shared = PgVectorFleet.tableName(PgVectorFleet.Layout.SHARED, "abc123");
        assertNotEquals(shared, PgVectorFleet.tableName(PgVectorFleet.Layout.PARTITIONED, "abc123"));
        assertNotEquals(shared, PgVectorFleet.tableName(PgVectorFleet.Layout.SHARED, "abc124"));
        String longest = PgVectorFleet.tableName(PgVectorFleet.Layout.PARTITIONED, Long.toString(Long.MAX_VALUE, 36));
        assertTrue(longest.matches("[a-z_][a-z0-9_]*") && longest.length() <= 40, longest + ": the store's table-name rules");
    }

    @Test
    void theDefaultShapeIsCappedAndOptionsOverrideIt() {
        BenchCommand.PgVectorRun defaults = run(URL);
        assertEquals(Math.min(Profile.QUICK.tenants(), BenchCommand.PG_MAX_TENANTS), defaults.shape().tenants());
        assertEquals(BenchCommand.PG_LARGEST, defaults.shape().sizeOf(1));
        assertTrue(BenchCommand.PG_LARGEST > PgVectorFleet.EXACT_SEARCH_MAX_ROWS, "the largest tenant takes the HNSW path");
        assertEquals(BenchCommand.PG_PARTITIONS, defaults.partitions());
        BenchCommand.PgVectorRun given = run(URL, "--pg-tenants", "7", "--pg-largest", "300", "--pg-partitions", "2");
        assertEquals(7, given.shape().tenants());
        assertEquals(300, given.shape().sizeOf(1));
        assertEquals(Profile.QUICK.window(), given.shape().window(), "the profile's windows");
        assertEquals("jdbc:postgresql://h/d", run(URL, "--jdbc-url", "jdbc:postgresql://h/d").jdbcUrl(), "the option over the environment");
    }

    @Test
    void badPgVectorOptionsAreUsageErrors() {
        assertTrue(assertThrows(UsageException.class, () -> run(null)).getMessage().contains("--jdbc-url"));
        assertThrows(UsageException.class, () -> run(" "));
        assertThrows(UsageException.class, () -> run("jdbc:mysql://h/d"));
        assertThrows(UsageException.class, () -> run(URL, "--pg-tenants", "5", "--pg-partitions", "6"));
        assertThrows(UsageException.class, () -> run(URL, "--pg-largest", "lots"));
        PrintStream sink = new PrintStream(new ByteArrayOutputStream());
        UsageException store = assertThrows(UsageException.class, () -> new BenchCommand().run(List.of("--store", "mongo"), sink, sink));
        assertTrue(store.getMessage().contains("lucene"), store.getMessage());
    }

    @Test
    void queryVectorsAreSentInPgVectorsTextForm() {
        assertEquals("[1.0,-0.5,0.25]", RawPgVector.literal(new float[] {1f, -0.5f, 0.25f}));
    }
}
