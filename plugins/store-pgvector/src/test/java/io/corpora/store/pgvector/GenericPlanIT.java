package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A large tenant among many small ones keeps its HNSW search however often one connection runs it. PostgreSQL plans a
 * statement prepared on the server (the driver does so from its fifth run) with a generic plan once that looks no
 * dearer than the custom ones, and the generic plan estimates {@code tenant = $1} at the average tenant: a few rows, so
 * it reads the tenant's rows through a B-tree index and sorts them all instead of walking the HNSW index. Observed on
 * PostgreSQL's own count of scans per index (from another session), for as many searches as the driver and the plan
 * cache need to switch twice over.
 */
class GenericPlanIT {

    private static final String TABLE = "it_generic_plan";
    private static final int SMALL_TENANTS = 1_000;
    private static final int LARGE_TENANT_ROWS = 3_000;
    private static final int SEARCHES = 25;

    @BeforeEach
    void freshTable() throws Exception {
        TestDatabase.url();
        TestDatabase.dropTable(TABLE);
    }

    @Test
    void everySearchOfALargeTenantWalksTheHnswIndex() throws Exception {
        Random random = new Random(7);
        Namespace large = Namespace.of("large");
        long before;
        // One connection, so every search runs on the one whose prepared statements the plan cache keeps.
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "3", PgVectorOptions.POOL_SIZE, "1",
                PgVectorOptions.EXACT_SEARCH_MAX_ROWS, "100"))) {
            for (int t = 0; t < SMALL_TENANTS; t++) {
                store.upsert(Namespace.of("small-" + t), rows(random, 3));
            }
            store.upsert(large, rows(random, LARGE_TENANT_ROWS));
            try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
                statement.execute("ANALYZE " + TABLE); // what autovacuum keeps current on a running database
            }
            before = hnswScans(0);
            for (int i = 0; i < SEARCHES; i++) {
                float[] query = {random.nextFloat() - 0.5f, random.nextFloat() - 0.5f, random.nextFloat() - 0.5f};
                assertEquals(10, store.search(large, SearchRequest.vector(query, 10, MetadataFilter.all(), null, null)).size());
            }
        } // closing the store ends its session, which reports its counts as it exits
        long scans = hnswScans(before + SEARCHES) - before;
        assertEquals(SEARCHES, scans, "searches of the large tenant that walked the HNSW index, of " + SEARCHES);
    }

    private static List<EmbeddedChunk> rows(Random random, int count) {
        List<EmbeddedChunk> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new EmbeddedChunk(new Chunk("c" + i, "d" + i, 0, "text " + i, List.of(), Map.of()),
                    new float[] {random.nextFloat() - 0.5f, random.nextFloat() - 0.5f, random.nextFloat() - 0.5f}));
        }
        return rows;
    }

    /**
     * The table's HNSW index scans as the statistics show them, waiting (30 s at most) until they reach {@code expected}:
     * a session reports its counts when it ends or goes idle, not as it runs.
     */
    private static long hnswScans(long expected) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            long scans;
            try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT coalesce(sum(idx_scan), 0) FROM pg_stat_user_indexes WHERE relname = '"
                         + TABLE + "' AND indexrelname LIKE '%embedding%'")) {
                rows.next();
                scans = rows.getLong(1);
            }
            if (scans >= expected || System.nanoTime() > deadline) {
                return scans;
            }
            synchronized (GenericPlanIT.class) {
                GenericPlanIT.class.wait(200); // the statistics collector has no event to wait on
            }
        }
    }
}
