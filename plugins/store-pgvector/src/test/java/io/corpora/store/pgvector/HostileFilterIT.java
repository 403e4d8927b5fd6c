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
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Filter keys, filter values, document ids, chunk ids and keyword queries written to break out of SQL, JSON,
 * jsonpath or tsquery syntax. Each is either refused before SQL exists (keys outside the SPI's key charset) or
 * bound as data: the results equal the oracle's, and the table and a bystander tenant are intact afterwards.
 */
class HostileFilterIT {

    private static final String TABLE = "it_hostile";
    private static final Namespace VICTIM = Namespace.of("hostile-victim");
    private static final Namespace ATTACKER = Namespace.of("hostile-attacker");

    private static final List<String> HOSTILE_VALUES = List.of(
            "x' OR '1'='1",
            "'); DROP TABLE " + TABLE + "; --",
            "\"}, \"tenant\": \"hostile-victim",
            "{\"$ne\": null}",
            "]}) OR TRUE --",
            "$ ? (@ == @) || true",
            "a\\\" || true || \\\"b",
            "%_*?",
            "' UNION SELECT chunk_id FROM " + TABLE + " --",
            "\\x00\\u0000");

    private static PgVectorStore store;

    @BeforeAll
    static void open() throws Exception {
        if (!TestDatabase.configured()) {
            return;
        }
        TestDatabase.dropTable(TABLE);
        store = TestDatabase.open(TABLE, Map.of(PgVectorOptions.DIMENSION, "4"));
        store.upsert(VICTIM, List.of(new EmbeddedChunk(chunk("secret", 0, "victim secret text", Map.of("k", "v")), new float[] {1, 0, 0, 0})));
        List<EmbeddedChunk> rows = new java.util.ArrayList<>();
        for (int i = 0; i < HOSTILE_VALUES.size(); i++) {
            String value = HOSTILE_VALUES.get(i);
            rows.add(new EmbeddedChunk(chunk(value, i, value, Map.of("k", value, "list", List.of(value, "plain"))),
                    new float[] {1, i, 0, 1}));
        }
        rows.add(new EmbeddedChunk(chunk("plain", 99, "plain text", Map.of("k", "plain")), new float[] {0, 1, 1, 0}));
        store.upsert(ATTACKER, rows);
    }

    @AfterAll
    static void close() throws Exception {
        if (store != null) {
            store.close();
            TestDatabase.dropTable(TABLE);
        }
    }

    @BeforeEach
    void requireDatabase() {
        TestDatabase.url();
    }

    private static Chunk chunk(String documentId, int index, String text, Map<String, ?> metadata) {
        return new Chunk(documentId + "#" + index, documentId, index, text, List.of(), io.corpora.spi.Metadata.copyOf(metadata));
    }

    private static Set<String> ids(List<ScoredChunk> hits) {
        Set<String> ids = new HashSet<>();
        hits.forEach(h -> ids.add(h.chunk().id()));
        return ids;
    }

    private static Set<String> search(MetadataFilter filter) {
        return ids(store.search(ATTACKER, SearchRequest.vector(new float[] {1, 1, 1, 1}, 100, filter, null, null)));
    }

    @Test
    void hostileValuesMatchOnlyThemselves() throws Exception {
        for (int i = 0; i < HOSTILE_VALUES.size(); i++) {
            String value = HOSTILE_VALUES.get(i);
            String id = value + "#" + i;
            assertEquals(Set.of(id), search(MetadataFilter.eq("k", value)), "Eq on " + value);
            assertEquals(Set.of(id), search(MetadataFilter.anyOf("list", List.of(value, "no such"))), "AnyOf on " + value);
            assertEquals(1, store.count(ATTACKER, new MetadataFilter.Range("k", value, true, value, true)), "Range on " + value);
            assertEquals(HOSTILE_VALUES.size(), store.count(ATTACKER, MetadataFilter.not(MetadataFilter.eq("k", value))),
                    "Not on " + value + " matches every other attacker row");
            assertEquals(List.of(id), store.documentChunks(ATTACKER, value).stream().map(Chunk::id).toList(), "document id " + value);
        }
        assertIntact();
    }

    @Test
    void keysOutsideTheSpiCharsetAreRefusedBeforeAnySql() {
        for (String key : List.of("k' OR 1=1 --", "k\"", "k) OR (1=1", "k;DROP", "k ->> 'x'", "{k}", "$.k", "k[0]", "")) {
            assertThrows(IllegalArgumentException.class, () -> MetadataFilter.eq(key, "v"), "key " + key);
            assertThrows(IllegalArgumentException.class, () -> MetadataFilter.exists(key), "key " + key);
        }
    }

    @Test
    void oddButLegalKeysAreBoundAsData() throws Exception {
        for (String key : List.of("k.x-y_z", "_tenant", "k--", "k.", "__", "tenant", "chunk_id")) {
            assertEquals(0, store.count(ATTACKER, MetadataFilter.exists(key)), "no chunk has key " + key);
            assertEquals(Set.of(), search(MetadataFilter.eq(key, "hostile-victim")), "key " + key);
        }
        assertIntact();
    }

    @Test
    void hostileIdsDeleteOnlyThemselves() throws Exception {
        Namespace scratch = Namespace.of("hostile-scratch");
        for (String value : HOSTILE_VALUES) {
            store.upsert(scratch, List.of(new EmbeddedChunk(chunk(value, 0, "t", Map.of()), new float[] {1, 2, 3, 4})));
        }
        store.upsert(scratch, List.of(new EmbeddedChunk(chunk("keep", 0, "t", Map.of()), new float[] {1, 2, 3, 4})));
        for (String value : HOSTILE_VALUES) {
            assertEquals(1, store.deleteDocument(scratch, value), "delete document " + value);
        }
        assertEquals(1, store.count(scratch, MetadataFilter.all()));
        store.upsert(scratch, List.of(new EmbeddedChunk(chunk(HOSTILE_VALUES.get(1), 0, "t", Map.of()), new float[] {1, 2, 3, 4})));
        assertEquals(1, store.deleteChunks(scratch, List.of(HOSTILE_VALUES.get(1) + "#0", "' OR TRUE --")));
        assertEquals(List.of("keep#0"), store.list(scratch, null, 10).chunks().stream().map(Chunk::id).toList());
        assertIntact();
    }

    @Test
    void hostileKeywordQueriesAreJustText() throws Exception {
        for (String query : List.of("plain & !text | (victim", "':* | secret:*", "\"unclosed phrase", "- -- ---", "!!!", "(((",
                "' OR 1=1 --", "victim' || 'secret", "<-> <2> plain", "plain\u0000text", "\"\"", "-plain")) {
            List<ScoredChunk> hits = store.search(ATTACKER, SearchRequest.keyword(query, 50, MetadataFilter.all(), null, null));
            for (ScoredChunk hit : hits) {
                assertTrue(!hit.chunk().id().equals("secret#0") && !hit.chunk().text().equals("victim secret text"),
                        "the victim tenant's chunk leaked for query " + query);
            }
        }
        assertEquals(Set.of("plain#99"), ids(store.search(ATTACKER, SearchRequest.keyword("plain text", 50,
                MetadataFilter.eq("k", "plain"), null, null))));
        assertIntact();
    }

    /** The table exists, the victim tenant is untouched, and the attacker's rows are all there. */
    private static void assertIntact() throws Exception {
        try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery("SELECT tenant, count(*) FROM " + TABLE + " GROUP BY tenant ORDER BY tenant")) {
            assertTrue(rows.next());
            assertEquals(ATTACKER.tenant(), rows.getString(1));
            assertEquals(HOSTILE_VALUES.size() + 1, rows.getLong(2));
            assertTrue(rows.next());
            if (rows.getString(1).equals("hostile-scratch")) {
                assertTrue(rows.next());
            }
            assertEquals(VICTIM.tenant(), rows.getString(1));
            assertEquals(1, rows.getLong(2));
        }
        assertEquals(List.of("secret#0"), store.documentChunks(VICTIM, "secret").stream().map(Chunk::id).toList());
    }
}
