package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.InvalidInputException;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Search routing to read replicas on the real database. The test database stands in for a caught-up replica (it answers
 * the lag query with 0, as a standby that replayed everything does) next to a replica that refuses connections: searches
 * are served, from the live replica's pool, and the dead one is skipped. Replica lag and loss on a real streaming replica
 * are exercised by scripts/cluster-test.sh.
 */
class ReadReplicaIT {

    private static final String TABLE = "it_replicas";
    private static final String DEAD_REPLICA = "jdbc:postgresql://127.0.0.1:1/corpora?connectTimeout=1";

    @BeforeEach
    void freshTable() throws Exception {
        TestDatabase.url();
        TestDatabase.dropTable(TABLE);
    }

    @Test
    void searchesGoToALiveReplicaAndSkipADeadOne() throws Exception {
        Namespace ns = Namespace.of("replicas");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2",
                PgVectorOptions.REPLICA_JDBC_URLS, DEAD_REPLICA + "," + TestDatabase.url()))) {
            store.upsert(ns, List.of(new EmbeddedChunk(new Chunk("a", "doc", 0, "harbour pilots", List.of(), Map.of()), new float[] {1, 0})));
            for (int i = 0; i < 4; i++) {
                List<ScoredChunk> hits = store.search(ns, SearchRequest.vector(new float[] {1, 0}, 1, MetadataFilter.all(), null, null));
                assertEquals(List.of("a"), hits.stream().map(h -> h.chunk().id()).toList(), "served whichever replica the round robin picks");
            }
            List<String> state = store.replicasForTest().describe();
            assertTrue(state.get(0).endsWith(" down"), "the refusing replica is skipped: " + state);
            assertEquals("lag 0 ms", state.get(1).substring(state.get(1).indexOf("lag")), "the caught-up replica: " + state);
            try (Connection connection = store.connectionsForTest().open(); Statement statement = connection.createStatement();
                 ResultSet rows = statement.executeQuery("SELECT count(*) FROM pg_stat_activity WHERE application_name = 'corpora-store-pgvector-replica'")) {
                rows.next();
                assertTrue(rows.getInt(1) >= 1, "the searches ran on the replica's own pool");
            }
        }
    }

    @Test
    void aConsistencyTokenIsHonouredByACaughtUpReplicaAndOtherwiseByThePrimaryAfterTheBoundedWait() {
        Namespace ns = Namespace.of("ryw");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2",
                PgVectorOptions.REPLICA_JDBC_URLS, TestDatabase.url(), PgVectorOptions.CONSISTENCY_WAIT_MILLIS, "50"))) {
            store.upsert(ns, List.of(new EmbeddedChunk(new Chunk("w", "doc", 0, "pilot boarding", List.of(), Map.of()), new float[] {1, 1})));
            String token = store.consistencyToken(ns);
            assertTrue(token.matches("pg:[0-9A-F]+/[0-9A-F]+"), token);
            SearchRequest ownWrite = SearchRequest.vector(new float[] {1, 1}, 1, MetadataFilter.all(), null, null).withConsistencyToken(token);
            assertEquals(List.of("w"), store.search(ns, ownWrite).stream().map(h -> h.chunk().id()).toList());
            assertEquals(0, store.replicasForTest().tokenFallbacks(), "the replica had the write: it served the search");

            // A position the primary has not reached was never issued by it: refused at once, no replica is waited on.
            SearchRequest ahead = ownWrite.withConsistencyToken("pg:FFFFFFFF/FFFFFFFF");
            InvalidInputException forged = assertThrows(InvalidInputException.class, () -> store.search(ns, ahead));
            assertTrue(forged.getMessage().contains("ahead of this store's log"), forged.getMessage());
            assertEquals(0, store.replicasForTest().tokenFallbacks());
            // The routing itself, for a position no replica replays in time (a lagging standby): empty after the bounded
            // wait, so the primary serves.
            assertTrue(store.replicasForTest().open(new LogPosition("FFFFFFFF/FFFFFFFF")).isEmpty());
            assertEquals(1, store.replicasForTest().tokenFallbacks());

            assertThrows(InvalidInputException.class, () -> store.search(ns, ownWrite.withConsistencyToken("lucene:42")));
        }
    }

    @Test
    void withoutReplicasThereIsNoTokenAndEveryReadIsConsistent() {
        Namespace ns = Namespace.of("ryw-primary");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2"))) {
            store.upsert(ns, List.of(new EmbeddedChunk(new Chunk("p", "doc", 0, "primary only", List.of(), Map.of()), new float[] {0, 1})));
            assertNull(store.consistencyToken(ns));
            SearchRequest request = SearchRequest.vector(new float[] {0, 1}, 1, MetadataFilter.all(), null, null).withConsistencyToken("pg:0/1");
            assertEquals(1, store.search(ns, request).size());
        }
    }

    @Test
    void withOnlyDeadReplicasThePrimaryServes() {
        Namespace ns = Namespace.of("no-replica");
        try (PgVectorStore store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "2", PgVectorOptions.REPLICA_JDBC_URLS, DEAD_REPLICA))) {
            store.upsert(ns, List.of(new EmbeddedChunk(new Chunk("b", "doc", 0, "tide tables", List.of(), Map.of()), new float[] {0, 1})));
            assertEquals(1, store.search(ns, SearchRequest.vector(new float[] {0, 1}, 1, MetadataFilter.all(), null, null)).size());
            assertTrue(store.replicasForTest().describe().get(0).endsWith(" down"));
        }
    }
}
