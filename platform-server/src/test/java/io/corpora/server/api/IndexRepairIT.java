package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfEnvironmentVariable;

/**
 * verify and rebuild against damage planted directly in a real pgvector table (CORPORA_TEST_PG_URL; skipped without
 * it): an orphan chunk of a document the registry does not know, a chunk of a stale version, and a deleted chunk.
 * verify classifies each without repairing; retrieval never returns the orphan; the rebuild job repairs all three.
 */
@EnabledIfEnvironmentVariable(named = "CORPORA_TEST_PG_URL", matches = ".+", disabledReason = "CORPORA_TEST_PG_URL is not set: no"
        + " PostgreSQL with pgvector to plant chunks in (run scripts/install-pgvector.sh and export the URL it prints)")
class IndexRepairIT extends DeployedServer {

    private static final String PG_URL_VARIABLE = "CORPORA_TEST_PG_URL";
    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String T = TenantFixtures.uniqueId("repair");
    private static final String TABLE = "it_repair_" + UUID.randomUUID().toString().substring(0, 8);
    private static final String DOCS = "api/v1/tenants/" + T + "/documents";

    private static String pgUrl;

    @BeforeAll
    static void pgvectorTenant() {
        pgUrl = System.getenv(PG_URL_VARIABLE);
        Map<String, Object> tenant = TenantFixtures.embeddedDefaults(T);
        tenant.put("store", Map.of("provider", "pgvector", "config", Map.of("jdbcUrl", pgUrl, "table", TABLE, "ensureSchema", true, "poolSize", 2)));
        FIXTURES.create(tenant);
    }

    @AfterAll
    static void dropTable() throws SQLException {
        try (Connection db = DriverManager.getConnection(pgUrl); Statement statement = db.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + TABLE);
        }
    }

    private static String writer() {
        return CLIENT.token("writer", T, Roles.WRITER);
    }

    private static String admin() {
        return CLIENT.token("admin", T, Roles.TENANT_ADMIN);
    }

    private static List<String> retrievedTexts(String query) {
        ServerClient.Response response = CLIENT.post("api/v1/tenants/" + T + "/retrieve", CLIENT.token("reader", T, Roles.READER),
                Map.of("query", query, "mode", "keyword", "topK", 20));
        assertEquals(200, response.status(), response.body());
        List<String> texts = new ArrayList<>();
        response.json().get("passages").forEach(p -> texts.add(p.get("text").asText()));
        return texts;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        array.forEach(v -> values.add(v.asText()));
        return values;
    }

    private static long rows(Connection db, String where, String parameter) throws SQLException {
        try (PreparedStatement query = db.prepareStatement("SELECT count(*) FROM " + TABLE + " WHERE tenant = ? AND " + where)) {
            query.setString(1, T);
            query.setString(2, parameter);
            try (ResultSet result = query.executeQuery()) {
                result.next();
                return result.getLong(1);
            }
        }
    }

    /** Copies one chunk row of {@code fromDocument} under a new id, document and metadata: real embedder and vector. */
    private static void plantCopy(Connection db, String fromDocument, String chunkId, String documentId, String text, String metadataPatch)
            throws SQLException {
        String sql = "INSERT INTO " + TABLE + " (tenant, partition_key, chunk_id, document_id, chunk_index, embedder, text, index_text,"
                + " heading_path, metadata, embedding) SELECT tenant, partition_key, ?, ?, chunk_index, embedder, COALESCE(?, text),"
                + " COALESCE(?, index_text), heading_path, metadata || ?::jsonb, embedding FROM " + TABLE
                + " WHERE tenant = ? AND document_id = ? ORDER BY chunk_id LIMIT 1";
        try (PreparedStatement insert = db.prepareStatement(sql)) {
            insert.setString(1, chunkId);
            insert.setString(2, documentId);
            insert.setString(3, text);
            insert.setString(4, text);
            insert.setString(5, metadataPatch);
            insert.setString(6, T);
            insert.setString(7, fromDocument);
            assertEquals(1, insert.executeUpdate(), "planted " + chunkId);
        }
    }

    @Test
    void verifyClassifiesPlantedDamageAndTheRebuildJobRepairsIt() throws Exception {
        for (String[] document : new String[][] {
                {"alpha", "# Alpha\n\nAlpacas are shorn once a year.\n\nTheir fleece is softer than sheep wool."},
                {"beta", "# Beta\n\nBeavers build dams from branches and mud.\n\nA dam can flood a whole valley."},
                {"gamma", "# Gamma\n\nGannets dive into the sea at high speed."}}) {
            ServerClient.Response created = CLIENT.post(DOCS, writer(), Map.of("id", document[0], "text", document[1], "format", "markdown"));
            assertEquals(201, created.status(), created.body());
        }
        JsonNode clean = CLIENT.get("api/v1/tenants/" + T + "/index:verify", writer()).json();
        assertTrue(clean.get("consistent").asBoolean(), clean.toString());

        String orphanId = T + "~_default/ghost@v1#0";
        String staleId = T + "~_default/alpha@v7#0";
        try (Connection db = DriverManager.getConnection(pgUrl)) {
            plantCopy(db, "alpha", orphanId, "ghost", "Zebracorns graze on the moon every night.", "{\"_document\": \"ghost\"}");
            plantCopy(db, "alpha", staleId, "alpha", null, "{\"_version\": 7}");
            try (PreparedStatement delete = db.prepareStatement("DELETE FROM " + TABLE + " WHERE tenant = ? AND document_id = 'beta'"
                    + " AND chunk_id = (SELECT min(chunk_id) FROM " + TABLE + " WHERE tenant = ? AND document_id = 'beta')")) {
                delete.setString(1, T);
                delete.setString(2, T);
                assertEquals(1, delete.executeUpdate());
            }
        }

        JsonNode verify = CLIENT.get("api/v1/tenants/" + T + "/index:verify", writer()).json();
        assertFalse(verify.get("consistent").asBoolean(), verify.toString());
        assertEquals(1, verify.get("orphaned").get("count").asInt(), verify.toString());
        assertEquals(List.of(orphanId), strings(verify.get("orphaned").get("chunkIds")));
        assertEquals(1, verify.get("stale").get("count").asInt(), verify.toString());
        assertEquals(List.of(staleId), strings(verify.get("stale").get("chunkIds")));
        assertEquals(1, verify.get("missing").get("count").asInt(), verify.toString());
        JsonNode missing = verify.get("missing").get("documents").get(0);
        assertEquals("beta", missing.get("documentId").asText(), verify.toString());
        assertEquals(missing.get("expected").asInt() - 1, missing.get("found").asInt(), verify.toString());
        assertEquals(0, verify.get("unstamped").get("count").asInt(), verify.toString());
        assertEquals(verify.toString(), CLIENT.get("api/v1/tenants/" + T + "/index:verify", writer()).json().toString(),
                "verify repairs nothing");

        assertTrue(retrievedTexts("zebracorns graze moon").stream().noneMatch(t -> t.contains("Zebracorns")),
                "the orphan must never be retrieved");

        ServerClient.Response accepted = CLIENT.post("api/v1/tenants/" + T + "/index:rebuild", admin(), Map.of());
        assertEquals(202, accepted.status(), accepted.body());
        assertTrue(accepted.location().contains("/api/v1/tenants/" + T + "/jobs/"), accepted.location());
        JsonNode job = FIXTURES.awaitJob(accepted.location(), admin());
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
        assertEquals(3, job.get("total").asInt(), job.toString());
        assertEquals(3, job.get("succeeded").asInt(), job.toString());
        assertEquals(100, job.get("percent").asInt(), job.toString());
        List<String> rebuilt = new ArrayList<>();
        job.get("outcomes").forEach(o -> rebuilt.add(o.get("documentId").asText() + ":" + o.get("result").asText()));
        assertEquals(List.of("alpha:stored", "beta:stored", "gamma:stored"), rebuilt.stream().sorted().toList());

        JsonNode repaired = CLIENT.get("api/v1/tenants/" + T + "/index:verify", writer()).json();
        assertTrue(repaired.get("consistent").asBoolean(), repaired.toString());
        try (Connection db = DriverManager.getConnection(pgUrl)) {
            assertEquals(0, rows(db, "document_id = ?", "ghost"), "the orphan row is gone");
            assertEquals(0, rows(db, "chunk_id = ?", staleId), "the stale row is gone");
        }
        assertTrue(retrievedTexts("beavers dams flood valley").stream().anyMatch(t -> t.contains("flood a whole valley")));
        assertTrue(retrievedTexts("zebracorns graze moon").stream().noneMatch(t -> t.contains("Zebracorns")));
    }
}
