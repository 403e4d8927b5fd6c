package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/** Request ids, per-tenant metrics at /metrics and the dependency readiness check, against the running server. */
class ObservabilityIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();

    @Test
    void theRequestIdIsEchoedAndNamedInProblems() {
        String missing = TenantFixtures.uniqueId("nobody");
        String token = client.token("r", missing, Roles.READER);
        String id = "client-" + UUID.randomUUID();
        ServerClient.Response notFound = client.post("api/v1/tenants/" + missing + "/retrieve", token,
                Map.of("query", "x"), Map.of("X-Request-Id", id));
        assertEquals(404, notFound.status(), notFound.body());
        assertEquals(id, notFound.header("X-Request-Id"));
        assertEquals(id, notFound.json().get("requestId").asText());

        ServerClient.Response generated = client.get("admin/v1/plugins", client.token("ops", null, Roles.PLATFORM_ADMIN));
        assertEquals(200, generated.status());
        assertEquals(36, generated.header("X-Request-Id").length(), "a UUID when the caller sent none: " + generated.header("X-Request-Id"));

        ServerClient.Response forged = client.get("admin/v1/plugins", null, Map.of("X-Request-Id", "a b\"}{"));
        assertNotEquals("a b\"}{", forged.header("X-Request-Id"), "ids that could forge log records are replaced");
        assertEquals(36, forged.header("X-Request-Id").length());
    }

    @Test
    void retrievalsAndIngestsAreMeasuredPerTenantAndRoute() {
        String tenant = TenantFixtures.uniqueId("metrics");
        new TenantFixtures(client).create(tenant, List.of(), false);
        assertEquals(201, client.post("api/v1/tenants/" + tenant + "/documents", client.token("w", tenant, Roles.WRITER),
                Map.of("id", "doc", "text", "Lanterns are lit at dusk. The harbour closes at night.")).status());
        String reader = client.token("r", tenant, Roles.READER);
        for (int i = 0; i < 3; i++) {
            assertEquals(200, client.post("api/v1/tenants/" + tenant + "/retrieve", reader, Map.of("query", "lanterns")).status());
        }
        assertEquals(400, client.post("api/v1/tenants/" + tenant + "/retrieve", reader, Map.of("query", "lanterns", "topK", 0)).status());

        PrometheusText metrics = PrometheusText.parse(client.get("metrics", null).body());
        String retrieve = "route=\"POST /api/v1/tenants/{tenant}/retrieve\"";
        String ofTenant = "tenant=\"" + tenant + "\"";
        assertEquals(3, metrics.value("corpora_requests_total", ofTenant, retrieve, "status=\"2xx\""), metrics.about(tenant));
        assertEquals(1, metrics.value("corpora_requests_total", ofTenant, retrieve, "status=\"4xx\""), "a series per status class: " + metrics.about(tenant));
        assertEquals(4, metrics.value("corpora_request_duration_seconds_count", ofTenant, retrieve), "every status is timed");
        double seconds = metrics.value("corpora_request_duration_seconds_sum", ofTenant, retrieve);
        assertTrue(seconds > 0 && seconds < 60, "4 retrievals took " + seconds + " s in total");
        assertEquals(4, metrics.value("corpora_request_duration_seconds_bucket", ofTenant, retrieve, "le=\"10.0\""),
                "the configured latency buckets: " + metrics.about(tenant));
        assertEquals(3, metrics.value("corpora_retrieve_passages_count", ofTenant, retrieve));
        assertTrue(metrics.value("corpora_retrieve_passages_sum", ofTenant, retrieve) >= 3, "each retrieval returned the document's passage");
        // The same query three times: the query-embedding cache answers the repeats, so the model is called at least once.
        assertTrue(metrics.value("corpora_plugin_call_seconds_count", ofTenant, "kind=\"embedder\"", "operation=\"embedQuery\"",
                "outcome=\"success\"") >= 1, metrics.about(tenant));
        assertTrue(metrics.value("corpora_plugin_call_seconds_count", ofTenant, "kind=\"store\"", "operation=\"search\"") >= 3);
        assertEquals(1, metrics.value("corpora_ingest_documents_total", ofTenant));
        assertTrue(metrics.value("corpora_ingest_chunks_total", ofTenant) >= 1);
    }

    @Test
    void anInventedHttpMethodMintsNoMetricSeries() {
        for (String method : List.of("FOOBAR", "BAZQUX")) {
            ServerClient.Response answer = client.send(method, "api/v1/tenants/anyone/retrieve", null, null);
            assertTrue(answer.status() >= 400, method + " is refused: " + answer.status());
        }
        String text = client.get("metrics", null).body();
        assertTrue(text.contains("corpora_requests_total"), "the server's own series are there");
        assertFalse(text.contains("FOOBAR") || text.contains("BAZQUX"),
                "no series names a method a client made up (Liberty's HTTP metrics are filtered out in server.xml)");
    }

    @Test
    void aTenantLeavingTheWorkingSetDropsItsSeriesAndItsTrafficAndTheyStartAgainOnItsNextCall() {
        String tenant = TenantFixtures.uniqueId("series");
        new TenantFixtures(client).create(tenant, List.of(), false);
        assertEquals(201, client.post("api/v1/tenants/" + tenant + "/documents", client.token("w", tenant, Roles.WRITER),
                Map.of("id", "doc", "text", "Lanterns are lit at dusk. The harbour closes at night.")).status());
        String reader = client.token("r", tenant, Roles.READER);
        for (int i = 0; i < 2; i++) {
            assertEquals(200, client.post("api/v1/tenants/" + tenant + "/retrieve", reader, Map.of("query", "lanterns")).status());
        }
        String retrieve = "route=\"POST /api/v1/tenants/{tenant}/retrieve\"";
        String ofTenant = "tenant=\"" + tenant + "\"";
        PrometheusText before = PrometheusText.parse(client.get("metrics", null).body());
        assertEquals(2, before.value("corpora_requests_total", ofTenant, retrieve, "status=\"2xx\""), before.about(tenant));
        JsonNode open = fleetRow(tenant);
        assertTrue(open.get("open").asBoolean(), open.toString());
        assertTrue(open.get("requestsPerMinute").asDouble() >= 2, "its traffic is in the fleet view: " + open);

        String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);
        ServerClient.Response inactive = client.post("admin/v1/tenants/" + tenant + "/state", admin, Map.of("state", "INACTIVE"));
        assertEquals(200, inactive.status(), inactive.body());

        String afterRelease = client.get("metrics", null).body();
        assertEquals("", PrometheusText.parse(afterRelease).about(ofTenant), "no series of the released tenant is left");
        JsonNode closed = fleetRow(tenant);
        assertTrue(!closed.get("open").asBoolean() && !closed.hasNonNull("requestsPerMinute") && !closed.hasNonNull("p95Millis"),
                "outside the working set its rate is unknown (null), not 0: " + closed);

        assertEquals(200, client.post("admin/v1/tenants/" + tenant + "/state", admin, Map.of("state", "ACTIVE")).status());
        assertEquals(200, client.post("api/v1/tenants/" + tenant + "/retrieve", reader, Map.of("query", "lanterns")).status());
        PrometheusText back = PrometheusText.parse(client.get("metrics", null).body());
        assertEquals(1, back.value("corpora_requests_total", ofTenant, retrieve, "status=\"2xx\""), "counted again from zero: " + back.about(tenant));
        assertEquals(1, back.value("corpora_request_duration_seconds_count", ofTenant, retrieve));
        assertTrue(back.value("corpora_plugin_call_seconds_count", ofTenant, "kind=\"store\"", "operation=\"search\"") >= 1, back.about(tenant));
        JsonNode reopened = fleetRow(tenant);
        assertTrue(reopened.get("open").asBoolean() && reopened.get("requestsPerMinute").asDouble() >= 1, reopened.toString());
    }

    private JsonNode fleetRow(String tenant) {
        ServerClient.Response page = client.get("admin/v1/fleet?q=" + tenant, client.token("ops", null, Roles.PLATFORM_ADMIN));
        assertEquals(200, page.status(), page.body());
        JsonNode rows = page.json().get("tenants");
        assertEquals(1, rows.size(), page.body());
        return rows.get(0);
    }

    @Test
    void readinessChecksTheControlPlaneDatabaseAndTheStores() {
        String tenant = TenantFixtures.uniqueId("ready");
        new TenantFixtures(client).create(tenant, List.of(), false);
        client.post("api/v1/tenants/" + tenant + "/retrieve", client.token("r", tenant, Roles.READER), Map.of("query", "x"));
        ServerClient.Response ready = client.get("health/ready", null);
        JsonNode dependencies = null;
        for (JsonNode check : ready.json().get("checks")) {
            if (check.get("name").asText().equals("dependencies")) {
                dependencies = check;
            }
        }
        assertTrue(dependencies != null, ready.body());
        assertEquals("UP", dependencies.get("status").asText(), ready.body());
        assertEquals("UP", dependencies.at("/data/control-plane-db").asText(), ready.body());
        boolean luceneChecked = false;
        for (var field : (Iterable<Map.Entry<String, JsonNode>>) dependencies.get("data")::fields) {
            luceneChecked |= field.getKey().startsWith("store:lucene/") && field.getValue().asText().equals("UP");
        }
        assertTrue(luceneChecked, "the Lucene store the tenant uses is probed: " + ready.body());
    }
}
