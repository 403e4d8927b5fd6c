package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Two tenants holding a document with the same id and the same text, through the real server (Liberty, JWT, JPA,
 * the Lucene store and ONNX embedder plugins): tenant A's tokens never see, change or delete tenant B's data, whatever
 * the path, body, metadata or filter says.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class TenantIsolationIT extends DeployedServer {

    private static final String SHARED_TEXT = "Travel policy. Employees book economy class for flights under six hours. "
            + "Hotel stays are reimbursed up to the city rate.";
    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String A = TenantFixtures.uniqueId("alpha");
    private static final String B = TenantFixtures.uniqueId("beta");

    private static String writer(String tenant) {
        return CLIENT.token("writer@" + tenant, tenant, Roles.WRITER);
    }

    private static String reader(String tenant) {
        return CLIENT.token("reader@" + tenant, tenant, Roles.READER);
    }

    @BeforeAll
    static void twoTenantsWithTheSameDocument() {
        FIXTURES.create(A, List.of(), false);
        FIXTURES.create(B, List.of(), false);
        for (String tenant : List.of(A, B)) {
            ServerClient.Response stored = CLIENT.post("api/v1/tenants/" + tenant + "/documents", writer(tenant),
                    Map.of("id", "handbook", "text", SHARED_TEXT, "source", "handbook.txt", "metadata", Map.of("lang", "en")));
            assertEquals(201, stored.status(), stored.body());
        }
        ServerClient.Response onlyA = CLIENT.post("api/v1/tenants/" + A + "/documents", writer(A),
                Map.of("id", "zebra", "text", "The zebrafish aquarium is on the third floor, next to the library.",
                        "metadata", Map.of("_tenant", B, "_partition", "stolen", "_embedder", "forged", "lang", "en")));
        assertEquals(201, onlyA.status(), onlyA.body());
    }

    @Test
    @Order(1)
    void aTokenForAnotherTenantIsForbiddenOnEveryRoute() {
        String tokenA = CLIENT.token("mallory", A, Roles.WRITER, Roles.READER, Roles.TENANT_ADMIN);
        String base = "api/v1/tenants/" + B;
        List<ServerClient.Response> attempts = List.of(
                CLIENT.post(base + "/retrieve", tokenA, Map.of("query", "travel policy")),
                CLIENT.get(base + "/documents", tokenA),
                CLIENT.get(base + "/documents/handbook", tokenA),
                CLIENT.get(base + "/documents/handbook/chunks", tokenA),
                CLIENT.delete(base + "/documents/handbook", tokenA),
                CLIENT.post(base + "/documents", tokenA, Map.of("id", "planted", "text", "planted by A")),
                CLIENT.get(base + "/jobs", tokenA),
                CLIENT.post("api/v1/tenants/no-such-tenant/retrieve", tokenA, Map.of("query", "x")));
        for (ServerClient.Response attempt : attempts) {
            assertEquals(403, attempt.status(), attempt.body());
            assertTrue(attempt.contentType().startsWith("application/problem+json"), attempt.contentType());
        }
        // B's document is untouched and B never received A's planted document.
        assertEquals(200, CLIENT.get(base + "/documents/handbook", reader(B)).status());
        assertEquals(404, CLIENT.get(base + "/documents/planted", reader(B)).status());
    }

    @Test
    @Order(2)
    void equalDocumentIdsNeverCollideAndEachTenantSeesOnlyItsOwn() {
        for (String tenant : List.of(A, B)) {
            for (String mode : List.of("keyword", "vector", "hybrid")) {
                JsonNode result = retrieve(tenant, reader(tenant), Map.of("query", "economy class flights hotel", "mode", mode));
                assertFalse(result.get("passages").isEmpty(), tenant + " " + mode + ": " + result);
                for (JsonNode passage : result.get("passages")) {
                    assertTrue(passage.get("id").asText().startsWith(tenant + "~"), passage.toString());
                    assertFalse(passage.get("metadata").has("_tenant"), "reserved keys never leave the server: " + passage);
                }
                assertEquals(0, result.get("diagnostics").get("rejected").asInt(), result.toString());
            }
        }
        JsonNode fromB = retrieve(B, reader(B), Map.of("query", "zebrafish aquarium", "mode", "keyword"));
        assertEquals(0, fromB.get("passages").size(), "A's document must not reach B: " + fromB);
    }

    @Test
    @Order(3)
    void reservedKeysInUploadMetadataAreOverriddenNotHonoured() {
        JsonNode chunks = CLIENT.get("api/v1/tenants/" + A + "/documents/zebra/chunks", reader(A)).json();
        JsonNode metadata = chunks.get("chunks").get(0).get("metadata");
        assertEquals("en", metadata.get("lang").asText());
        assertFalse(metadata.has("_tenant") || metadata.has("_partition") || metadata.has("_embedder"), metadata.toString());
        JsonNode found = retrieve(A, reader(A), Map.of("query", "zebrafish aquarium", "mode", "keyword"));
        assertEquals("zebra", found.get("passages").get(0).get("citation").get("documentId").asText());
    }

    @Test
    @Order(4)
    void aTenantFieldInTheBodyIsIgnoredAndCannotWidenScope() {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", "zebrafish aquarium");
        body.put("mode", "keyword");
        body.put("tenant", A);
        body.put("namespace", A);
        JsonNode result = retrieve(B, reader(B), body);
        assertEquals(0, result.get("passages").size(), result.toString());
    }

    @Test
    @Order(5)
    void hostileFilterKeysAreRefusedAndHostileValuesAreJustValues() {
        ServerClient.Response quoteKey = CLIENT.post("api/v1/tenants/" + A + "/retrieve", reader(A),
                Map.of("query", "travel", "filter", Map.of("lang' OR '1'='1", "en")));
        assertEquals(400, quoteKey.status(), quoteKey.body());
        ServerClient.Response reserved = CLIENT.post("api/v1/tenants/" + A + "/retrieve", reader(A),
                Map.of("query", "travel", "filter", Map.of("_tenant", B)));
        assertEquals(400, reserved.status(), reserved.body());
        ServerClient.Response unknownOperator = CLIENT.post("api/v1/tenants/" + A + "/retrieve", reader(A),
                Map.of("query", "travel", "filter", Map.of("lang", Map.of("$where", "1==1"))));
        assertEquals(400, unknownOperator.status(), unknownOperator.body());
        for (String hostile : List.of("en' OR '1'='1", "\"}]}) || true", "en\"; DROP TABLE chunks; --")) {
            JsonNode result = retrieve(A, reader(A), Map.of("query", "travel policy", "mode", "keyword", "filter", Map.of("lang", hostile)));
            assertEquals(0, result.get("passages").size(), hostile + " -> " + result);
        }
        assertEquals(1, retrieve(A, reader(A), Map.of("query", "travel policy", "mode", "keyword", "filter", Map.of("lang", "en")))
                .get("passages").size());
    }

    @Test
    @Order(6)
    void guessedDocumentAndChunkIdsStayInsideTheCallersNamespace() {
        // Guessed ids of B's chunks or traversal attempts are refused (the container answers 400 for encoded slashes,
        // the server 404 for unknown ids): never data.
        for (String guessed : List.of(B + "~_default/handbook@v1#0", "../" + B + "/handbook", B + "~_default%2Fhandbook", "handbook@v1#0")) {
            ServerClient.Response response = CLIENT.get("api/v1/tenants/" + A + "/documents/" + urlEncode(guessed) + "/chunks", reader(A));
            assertTrue(response.status() == 400 || response.status() == 404, guessed + " -> " + response.status() + " " + response.body());
            assertFalse(response.body().contains("economy"), response.body());
        }
        JsonNode chunksOfA = CLIENT.get("api/v1/tenants/" + A + "/documents/handbook/chunks", reader(A)).json();
        chunksOfA.get("chunks").forEach(c -> assertTrue(c.get("id").asText().startsWith(A + "~"), c.toString()));
    }

    @Test
    @Order(7)
    void readersCannotWriteAndDeletesStayInTheirTenant() {
        assertEquals(403, CLIENT.post("api/v1/tenants/" + A + "/documents", reader(A), Map.of("text", "x")).status());
        assertEquals(403, CLIENT.delete("api/v1/tenants/" + A + "/documents/handbook", reader(A)).status());
        assertEquals(204, CLIENT.delete("api/v1/tenants/" + A + "/documents/handbook", writer(A)).status());
        assertEquals(404, CLIENT.delete("api/v1/tenants/" + A + "/documents/handbook", writer(A)).status());
        assertEquals(200, CLIENT.get("api/v1/tenants/" + B + "/documents/handbook", reader(B)).status());
        JsonNode stillInB = retrieve(B, reader(B), Map.of("query", "economy class flights", "mode", "keyword"));
        assertEquals("handbook", stillInB.get("passages").get(0).get("citation").get("documentId").asText());
        JsonNode goneFromA = retrieve(A, reader(A), Map.of("query", "economy class flights", "mode", "keyword"));
        goneFromA.get("passages").forEach(p -> assertFalse(p.get("citation").get("documentId").asText().equals("handbook"), p.toString()));
    }

    @Test
    @Order(8)
    void unauthenticatedCallsAreRejected() {
        ServerClient.Response anonymous = CLIENT.post("api/v1/tenants/" + A + "/retrieve", null, Map.of("query", "x"));
        assertEquals(401, anonymous.status());
        ServerClient.Response admin = CLIENT.post("api/v1/tenants/" + A + "/retrieve", CLIENT.token("ops", null, Roles.PLATFORM_ADMIN),
                Map.of("query", "x"));
        assertEquals(403, admin.status(), "platform-admin tokens carry no tenant, so they cannot read tenant data");
        assertNull(admin.location());
    }

    static JsonNode retrieve(String tenant, String token, Map<String, Object> body) {
        ServerClient.Response response = CLIENT.post("api/v1/tenants/" + tenant + "/retrieve", token, body);
        assertEquals(200, response.status(), response.body());
        return response.json();
    }

    private static String urlEncode(String value) {
        return java.net.URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

}
