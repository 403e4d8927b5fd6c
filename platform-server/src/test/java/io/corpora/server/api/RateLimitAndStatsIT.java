package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A tenant's requestsPerMinute and ingestsPerMinute quotas answer 429 with Retry-After; its stored-size quotas answer 429
 * quota-exceeded naming the document; stats count what is stored.
 */
class RateLimitAndStatsIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();

    @Test
    void quotasLimitRequestsAndIngestsPerTenant() {
        String tenant = tenantWithQuotas("limited", Map.of("requestsPerMinute", 6, "ingestsPerMinute", 2));
        String writer = client.token("w", tenant, Roles.WRITER, Roles.READER);
        String docs = "api/v1/tenants/" + tenant + "/documents";

        assertEquals(201, client.post(docs, writer, Map.of("id", "a", "text", "Apples grow on trees.")).status());   // request 1, ingest 1
        assertEquals(201, client.post(docs, writer, Map.of("id", "b", "text", "Bees make honey.")).status());       // request 2, ingest 2
        ServerClient.Response third = client.post(docs, writer, Map.of("id", "c", "text", "Cows eat grass."));      // request 3, ingest refused
        assertEquals(429, third.status(), third.body());
        assertTrue(third.contentType().startsWith("application/problem+json"));
        assertTrue(Integer.parseInt(third.retryAfter()) >= 1, "Retry-After: " + third.retryAfter());

        JsonNode stats = client.get("api/v1/tenants/" + tenant + "/stats", writer).json();               // request 4
        assertEquals(2, stats.get("documents").asInt(), stats.toString());
        assertEquals(2, stats.get("chunks").asInt(), stats.toString());
        assertTrue(stats.get("bytes").asLong() > 0, stats.toString());
        assertEquals(2, stats.get("documentsByStatus").get("ACTIVE").asInt(), stats.toString());

        for (int request = 5; request <= 6; request++) {
            assertEquals(200, client.post("api/v1/tenants/" + tenant + "/retrieve", writer, Map.of("query", "honey", "mode", "keyword")).status());
        }
        ServerClient.Response limited = client.post("api/v1/tenants/" + tenant + "/retrieve", writer, Map.of("query", "honey"));
        assertEquals(429, limited.status(), limited.body());
        assertTrue(Integer.parseInt(limited.retryAfter()) >= 1);

        String other = TenantFixtures.uniqueId("unlimited");
        new TenantFixtures(client).create(other, List.of(), false);
        assertEquals(200, client.post("api/v1/tenants/" + other + "/retrieve", client.token("r", other, Roles.READER),
                Map.of("query", "honey", "mode", "keyword")).status(), "another tenant is not affected");
    }

    /** A refusal inside the ingest of one document keeps its own problem type (it was "ingest-failed" for all of them). */
    @Test
    void aSingleDocumentRefusalAnswersItsOwnProblemTypeNamingTheDocument() {
        String tenant = tenantWithQuotas("capped", Map.of("maxDocuments", 1));
        String writer = client.token("w", tenant, Roles.WRITER, Roles.READER);
        String docs = "api/v1/tenants/" + tenant + "/documents";
        assertEquals(201, client.post(docs, writer, Map.of("id", "a", "text", "Apples grow on trees.")).status());

        ServerClient.Response over = client.post(docs, writer, Map.of("id", "b", "text", "Bees make honey."));
        assertEquals(429, over.status(), over.body());
        assertTrue(over.json().get("type").asText().endsWith("/quota-exceeded"), over.body());
        assertEquals("b", over.json().get("documentId").asText(), over.body());
        assertNull(over.retryAfter(), "a quota of stored documents does not pass with time: no Retry-After");

        ServerClient.Response empty = client.post(docs, writer, Map.of("id", "a", "text", ""));
        assertEquals(422, empty.status(), empty.body());
        assertTrue(empty.json().get("type").asText().endsWith("/unreadable-document"), empty.body());
        assertEquals("a", empty.json().get("documentId").asText(), empty.body());
        assertEquals(1, client.get("api/v1/tenants/" + tenant + "/stats", writer).json().get("documents").asInt(), "nothing lost");
    }

    private String tenantWithQuotas(String prefix, Map<String, Object> quotas) {
        String tenant = TenantFixtures.uniqueId(prefix);
        Map<String, Object> definition = TenantFixtures.embeddedDefaults(tenant);
        definition.put("quotas", quotas);
        new TenantFixtures(client).create(definition);
        return tenant;
    }
}
