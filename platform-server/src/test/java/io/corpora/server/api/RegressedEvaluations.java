package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A tenant's evaluation history made worse on purpose, through the real server: three judged documents, a keyword
 * evaluation, then the judged documents of q1 and q3 deleted and the same judged set evaluated again. Shared by the
 * API and console tests of regression flags.
 */
public final class RegressedEvaluations {

    /** The tenant, its tenant-admin token, the request body both runs used, and the two finished runs. */
    public record History(String tenant, String adminToken, Map<String, Object> body, JsonNode first, JsonNode worse) {}

    private final ServerClient client;

    public RegressedEvaluations(ServerClient client) {
        this.client = client;
    }

    /** The tenant's API path. */
    public static String base(String tenant) {
        return "api/v1/tenants/" + tenant;
    }

    public History create(String tenant) {
        new TenantFixtures(client).create(tenant, List.of(), false);
        String writer = client.token("walt", tenant, Roles.WRITER);
        List<Map<String, Object>> documents = List.of(
                Map.of("id", "d1", "text", "Photosynthesis converts sunlight, water and carbon dioxide into glucose in chloroplasts."),
                Map.of("id", "d3", "text", "Volcanoes erupt when magma rises through the crust and releases gas and lava."),
                Map.of("id", "d4", "text", "Earthquakes happen when tectonic plates slip along a fault and release seismic waves."));
        ServerClient.Response accepted = client.post(base(tenant) + "/documents", writer, documents);
        assertEquals(202, accepted.status(), accepted.body());
        assertEquals("SUCCEEDED", new TenantFixtures(client).awaitJob(accepted.location(), writer).get("status").asText());
        String admin = client.token("ada", tenant, Roles.TENANT_ADMIN);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("queries", Map.of("q1", "how do plants make glucose from sunlight", "q2", "what causes lava eruptions",
                "q3", "seismic waves from tectonic plates"));
        body.put("qrelsTsv", "q1\td1\t1\nq2\td3\t1\nq3\td4\t1\n");
        body.put("candidates", List.of(Map.of("mode", "keyword")));
        JsonNode first = evaluate(tenant, admin, body);
        assertEquals(204, client.delete(base(tenant) + "/documents/d1", writer).status());
        assertEquals(204, client.delete(base(tenant) + "/documents/d4", writer).status());
        JsonNode worse = evaluate(tenant, admin, body);
        return new History(tenant, admin, body, first, worse);
    }

    /** Starts an evaluation with {@code body} and returns it once it finished (SUCCEEDED asserted). */
    public JsonNode evaluate(String tenant, String token, Map<String, Object> body) {
        ServerClient.Response accepted = client.post(base(tenant) + "/evaluations", token, body);
        assertEquals(202, accepted.status(), accepted.body());
        String id = accepted.json().get("id").asText();
        JsonNode done = new TenantFixtures(client).awaitJob(base(tenant) + "/evaluations/" + id, token, Duration.ofMinutes(3));
        assertEquals("SUCCEEDED", done.get("status").asText(), done.toString());
        return done;
    }
}
