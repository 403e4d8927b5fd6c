package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Changing a tenant's embedder so that its fingerprint changes is refused once the corpus holds chunks (409 naming both
 * fingerprints); a change that keeps the fingerprint, or any change on an empty corpus, is accepted.
 */
class EmbedderChangeIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @TempDir
    Path models;

    @Test
    void aNewFingerprintIsRefusedOnANonEmptyCorpusOnly() throws IOException {
        String full = TenantFixtures.uniqueId("fp-full");
        String empty = TenantFixtures.uniqueId("fp-empty");
        TenantFixtures fixtures = new TenantFixtures(client);
        fixtures.create(full, List.of(), false);
        fixtures.create(empty, List.of(), false);
        assertEquals(201, client.post("api/v1/tenants/" + full + "/documents", client.token("w", full, Roles.WRITER),
                Map.of("id", "doc", "text", "Lanterns are lit at dusk.")).status());

        // The same model file run as a "custom" model with mean pooling: another fingerprint, incomparable vectors.
        Map<String, Object> otherEmbedder = OtherOnnxEmbedder.meanPooledBge(models);

        ServerClient.Response refused = client.put("admin/v1/tenants/" + full, admin, definition(full, otherEmbedder));
        assertEquals(409, refused.status(), refused.body());
        assertTrue(refused.body().toLowerCase(java.util.Locale.ROOT).contains("re-embed"), refused.body());
        assertTrue(refused.body().contains("/admin/v1/tenants/" + full + "/embedder:migrate"), "the refusal names the migration route: " + refused.body());
        assertEquals(200, client.post("api/v1/tenants/" + full + "/retrieve", client.token("r", full, Roles.READER),
                Map.of("query", "lanterns", "mode", "vector")).status(), "the tenant keeps serving with its embedder");

        ServerClient.Response sameModel = client.put("admin/v1/tenants/" + full, admin,
                definition(full, Map.of("provider", "onnx", "config", Map.of("workers", "1"))));
        assertEquals(200, sameModel.status(), "a change that keeps the fingerprint is accepted: " + sameModel.body());

        ServerClient.Response onEmpty = client.put("admin/v1/tenants/" + empty, admin, definition(empty, otherEmbedder));
        assertEquals(200, onEmpty.status(), onEmpty.body());
    }

    private static Map<String, Object> definition(String id, Map<String, Object> embedder) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("id", id);
        definition.put("store", Map.of("provider", "lucene"));
        definition.put("embedder", embedder);
        definition.put("retrieval", Map.of("mode", "hybrid", "topK", 10));
        definition.put("access", Map.of("partitions", List.of()));
        return definition;
    }
}
