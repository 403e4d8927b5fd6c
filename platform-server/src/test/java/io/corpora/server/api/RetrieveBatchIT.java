package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code retrieve:batch}: several queries in one call, answered in order, with the same validation and isolation. */
class RetrieveBatchIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();

    @Test
    void answersEveryQueryInOrderAndValidatesTheBatch() {
        String tenant = TenantFixtures.uniqueId("batch");
        new TenantFixtures(client).create(tenant, List.of(), false);
        String writer = client.token("w", tenant, Roles.WRITER, Roles.READER);
        assertEquals(201, client.post("api/v1/tenants/" + tenant + "/documents", writer,
                Map.of("id", "volcano", "text", "Volcanoes erupt molten rock called lava.")).status());
        assertEquals(201, client.post("api/v1/tenants/" + tenant + "/documents", writer,
                Map.of("id", "glacier", "text", "Glaciers are slow rivers of ice that carve valleys.")).status());
        String batch = "api/v1/tenants/" + tenant + "/retrieve:batch";

        ServerClient.Response answered = client.post(batch, writer, Map.of("queries", List.of(
                Map.of("query", "molten rock", "mode", "keyword"),
                Map.of("query", "rivers of ice", "mode", "vector"),
                Map.of("query", "lava from a mountain", "mode", "hybrid", "topK", 1))));
        assertEquals(200, answered.status(), answered.body());
        List<String> tops = new ArrayList<>();
        for (JsonNode result : answered.json().get("results")) {
            tops.add(result.get("passages").get(0).get("citation").get("documentId").asText());
            assertTrue(result.get("context").asText().startsWith("<retrieved_context>"), result.toString());
        }
        assertEquals(List.of("volcano", "glacier", "volcano"), tops);
        assertEquals(1, answered.json().get("results").get(2).get("passages").size());

        List<Map<String, Object>> tooMany = new ArrayList<>();
        for (int i = 0; i < 33; i++) {
            tooMany.add(Map.of("query", "q" + i));
        }
        assertEquals(400, client.post(batch, writer, Map.of("queries", tooMany)).status());
        ServerClient.Response badItem = client.post(batch, writer, Map.of("queries", List.of(Map.of("query", "ok"), Map.of("query", "x", "topK", 500))));
        assertEquals(400, badItem.status(), badItem.body());
        assertTrue(badItem.contentType().startsWith("application/problem+json"));
        assertEquals(403, client.post("api/v1/tenants/someone-else/retrieve:batch", writer, Map.of("queries", List.of(Map.of("query", "x")))).status());
    }
}
