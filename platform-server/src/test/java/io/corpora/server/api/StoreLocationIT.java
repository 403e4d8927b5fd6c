package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * On the real server: a tenant whose Lucene search and HNSW options change keeps serving the documents it holds; a
 * change of its store location (another directory, another provider) is refused with 409 while it holds documents, and
 * changes nothing.
 */
class StoreLocationIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @TempDir
    Path elsewhere;

    @Test
    void unrelatedOptionsChangeFreelyAndALocationChangeOfANonEmptyTenantIs409() {
        String tenant = TenantFixtures.uniqueId("store-loc");
        new TenantFixtures(client).create(tenant, List.of(), false);
        String writer = client.token("w", tenant, Roles.WRITER);
        String reader = client.token("r", tenant, Roles.READER);
        assertEquals(201, client.post("api/v1/tenants/" + tenant + "/documents", writer,
                Map.of("id", "lanterns", "text", "Lanterns are lit at dusk by the harbour keeper.")).status());
        assertEquals(1, passages(tenant, reader), "served before the change");

        ServerClient.Response tuned = client.put("admin/v1/tenants/" + tenant, admin,
                definition(tenant, Map.of("provider", "lucene", "config", Map.of("numCandidatesFactor", "20", "hnsw.m", "24"))));
        assertEquals(200, tuned.status(), tuned.body());
        assertEquals(1, passages(tenant, reader), "the same index serves under the new search options");
        assertEquals(201, client.post("api/v1/tenants/" + tenant + "/documents", writer,
                Map.of("id", "ferries", "text", "Ferries to the lantern island leave hourly.")).status(), "and takes writes");

        Map<String, Object> moved = definition(tenant, Map.of("provider", "lucene", "config", Map.of("directory", elsewhere.toString())));
        ServerClient.Response refused = client.put("admin/v1/tenants/" + tenant, admin, moved);
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().contains("[directory]") && refused.body().contains("relocation"), refused.body());
        JsonNode kept = client.get("admin/v1/tenants/" + tenant, admin).json();
        assertEquals("20", kept.at("/store/config/numCandidatesFactor").asText(), kept.toString());
        assertTrue(kept.at("/store/config/directory").isMissingNode(), "nothing changed: " + kept);
        assertEquals(2, passages(tenant, reader), "still served from where its documents are");
    }

    private int passages(String tenant, String reader) {
        ServerClient.Response response = client.post("api/v1/tenants/" + tenant + "/retrieve", reader,
                Map.of("query", "lanterns harbour", "mode", "vector", "topK", 5));
        assertEquals(200, response.status(), response.body());
        return response.json().get("passages").size();
    }

    private static Map<String, Object> definition(String id, Map<String, Object> store) {
        Map<String, Object> definition = TenantFixtures.embeddedDefaults(id);
        definition.put("store", store);
        return definition;
    }
}
