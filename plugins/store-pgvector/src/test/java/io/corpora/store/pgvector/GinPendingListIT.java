package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The GIN indexes keep no pending list (ChunkSchema, {@code fastupdate = off}), on a fresh table and on one an earlier
 * version made with it, unpartitioned or LIST-partitioned by tenant, where the option lives on each partition's index.
 */
class GinPendingListIT {

    @RegisterExtension
    static final ItTable TABLE = new ItTable("it_gin_pending");

    @BeforeEach
    void freshTable() throws SQLException {
        TestDatabase.dropTable(TABLE.name);
    }

    @Test
    void aFreshTableHasNoPendingListOnAnyGinIndex() throws SQLException {
        TestDatabase.open(TABLE.name, Map.of(PgVectorOptions.DIMENSION, "2")).close();
        assertEquals(Map.of("it_gin_pending_index_tsv_idx", "off", "it_gin_pending_metadata_idx", "off"), ginFastUpdate());
    }

    @Test
    void theGinIndexesOfAnEarlierVersionLoseTheirPendingListAndKeepTheirRows() throws SQLException {
        Namespace ns = Namespace.of("earlier");
        try (PgVectorStore store = TestDatabase.open(TABLE.name, Map.of(PgVectorOptions.DIMENSION, "2"))) {
            store.upsert(ns, List.of(row("a", "harbour lodging for sailors"), row("b", "mountain huts")));
        }
        execute("ALTER INDEX it_gin_pending_index_tsv_idx SET (fastupdate = on)", "ALTER INDEX it_gin_pending_metadata_idx RESET (fastupdate)");
        assertEquals(Map.of("it_gin_pending_index_tsv_idx", "on", "it_gin_pending_metadata_idx", "default (on)"), ginFastUpdate());

        try (PgVectorStore store = TestDatabase.open(TABLE.name, Map.of(PgVectorOptions.DIMENSION, "2"))) {
            assertEquals(Map.of("it_gin_pending_index_tsv_idx", "off", "it_gin_pending_metadata_idx", "off"), ginFastUpdate());
            assertEquals(List.of("a#0"), keywordHits(store, ns, "lodging"));
        }
    }

    /**
     * PostgreSQL sets no storage parameter on a partitioned index, and a partition made later copies its parent's: a
     * table an earlier version partitioned, given one more tenant partition, ends with every partition's index off.
     */
    @Test
    void aPartitionedTableOfAnEarlierVersionGetsEveryPartitionsIndexOff() throws SQLException {
        Map<String, String> oneTenant = Map.of(PgVectorOptions.DIMENSION, "2", PgVectorOptions.TENANT_PARTITIONS, "big");
        TestDatabase.open(TABLE.name, oneTenant).close();
        // As an earlier version made them: the parent's GIN indexes without the option, so each partition's index has none.
        execute("DROP INDEX it_gin_pending_index_tsv_idx", "DROP INDEX it_gin_pending_metadata_idx",
                "CREATE INDEX it_gin_pending_index_tsv_idx ON it_gin_pending USING gin (index_tsv)",
                "CREATE INDEX it_gin_pending_metadata_idx ON it_gin_pending USING gin (metadata jsonb_path_ops)");
        assertFalse(ginFastUpdate().containsValue("off"), ginFastUpdate().toString());

        Namespace big = Namespace.of("big");
        Namespace added = Namespace.of("added");
        Namespace other = Namespace.of("other");
        try (PgVectorStore store = TestDatabase.open(TABLE.name, Map.of(PgVectorOptions.DIMENSION, "2", PgVectorOptions.TENANT_PARTITIONS,
                "big, added"))) {
            Map<String, String> indexes = ginFastUpdate();
            // Two parents (no storage, so no option), and two indexes on each of three partitions: big, added, default.
            assertEquals(8, indexes.size(), indexes.toString());
            indexes.forEach((index, fastUpdate) -> assertEquals(index.endsWith("(partitioned)") ? "default (on)" : "off", fastUpdate, index));
            for (Namespace ns : List.of(big, added, other)) {
                store.upsert(ns, List.of(row("a", "lodging of " + ns.tenant()), row("b", "mountain huts")));
                assertEquals(List.of("a#0"), keywordHits(store, ns, "lodging"));
            }
        }
    }

    private static List<String> keywordHits(PgVectorStore store, Namespace ns, String query) {
        return store.search(ns, SearchRequest.keyword(query, 5, MetadataFilter.all(), null, null)).stream().map(h -> h.chunk().id()).toList();
    }

    /** Each GIN index of the test table and its partitions: {@code on}, {@code off} or {@code default (on)}; a partitioned parent marked. */
    private static Map<String, String> ginFastUpdate() throws SQLException {
        Map<String, String> indexes = new TreeMap<>();
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT c.relname, c.relkind, (SELECT substring(o FROM 12) FROM unnest(c.reloptions) o"
                     + " WHERE o LIKE 'fastupdate=%') FROM pg_class c JOIN pg_index i ON i.indexrelid = c.oid"
                     + " WHERE c.relam = (SELECT oid FROM pg_am WHERE amname = 'gin') AND i.indrelid IN (SELECT oid FROM pg_class"
                     + " WHERE relname = 'it_gin_pending' OR relname LIKE 'it\\_gin\\_pending\\_%')")) {
            while (rows.next()) {
                String value = rows.getString(3);
                indexes.put(rows.getString(1) + (rows.getString(2).equals("I") ? " (partitioned)" : ""), value == null ? "default (on)" : value);
            }
        }
        return indexes;
    }

    private static void execute(String... statements) throws SQLException {
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
            for (String sql : statements) {
                statement.execute(sql);
            }
        }
    }

    private static EmbeddedChunk row(String document, String text) {
        return new EmbeddedChunk(new Chunk(document + "#0", document, 0, text, List.of(), Map.of()), new float[] {1, 0.5f});
    }
}
