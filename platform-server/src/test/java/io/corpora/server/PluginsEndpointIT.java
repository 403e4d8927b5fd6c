package io.corpora.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Deploys the real WAR to a managed Open Liberty, which loads the plugins directory the build assembled,
 * and checks over HTTP that the plugins are listed, that the endpoint is platform-admin only, and that errors
 * are problem+json.
 */
class PluginsEndpointIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();

    @Test
    void readinessIsUp() {
        ServerClient.Response ready = client.get("health/ready", null);
        assertEquals(200, ready.status(), ready.body());
        assertEquals("UP", ready.json().get("status").asText());
    }

    @Test
    void platformAdminSeesThePluginsLoadedFromThePluginsDirectory() {
        ServerClient.Response response = client.get("admin/v1/plugins", client.token("ops", null, Roles.PLATFORM_ADMIN));

        assertEquals(200, response.status(), response.body());
        JsonNode body = response.json();
        List<String> providers = new ArrayList<>();
        body.get("plugins").forEach(plugin -> plugin.get("providers").forEach(p -> providers.add(p.get("kind").asText() + ":" + p.get("name").asText())));
        assertTrue(providers.containsAll(List.of("reranker:probe-legacy", "reranker:probe-current")), providers.toString());
        JsonNode current = find(body.get("plugins"), "example-probe-current");
        assertTrue(current.get("jars").toString().contains("commons-lang3-3.18.0.jar"), current.toString());
        JsonNode options = current.get("providers").get(0).get("options");
        assertEquals("delay", options.get(0).get("name").asText());
        assertEquals("DURATION", options.get(0).get("type").asText());
    }

    /** The Qdrant store's bundle loads like any plugin: its own folder of jars, its options with their bounds. */
    @Test
    void theQdrantStoreLoadsFromItsBundleWithBoundedOptions() {
        JsonNode body = client.get("admin/v1/plugins", client.token("ops", null, Roles.PLATFORM_ADMIN)).json();
        JsonNode qdrant = find(body.get("plugins"), "store-qdrant");
        assertTrue(qdrant.get("jars").toString().contains("grpc-netty-shaded-"), qdrant.toString());
        JsonNode provider = qdrant.get("providers").get(0);
        assertEquals("vector-store:qdrant", provider.get("kind").asText() + ":" + provider.get("name").asText());
        JsonNode hnswM = null;
        for (JsonNode option : provider.get("options")) {
            if (option.get("name").asText().equals("hnsw.m")) {
                hnswM = option;
            }
        }
        assertTrue(hnswM != null && "2".equals(hnswM.get("minimum").asText()) && "128".equals(hnswM.get("maximum").asText()), provider.toString());
        assertEquals("[\"hnswM\"]", hnswM.get("aliases").toString(), "the pre-1.3 spelling is listed as an alias");
        assertTrue(body.get("problems").toString().indexOf("store-qdrant") < 0, body.get("problems").toString());
    }

    @Test
    void pluginsAreForPlatformAdminsOnly() {
        ServerClient.Response anonymous = client.get("admin/v1/plugins", null);
        assertEquals(401, anonymous.status());
        ServerClient.Response reader = client.get("admin/v1/plugins", client.token("alice", "acme", Roles.READER));
        assertEquals(403, reader.status());
    }

    @Test
    void unknownRoutesAnswerProblemJson() {
        ServerClient.Response missing = client.get("admin/v1/no-such-thing", client.token("ops", null, Roles.PLATFORM_ADMIN));
        assertEquals(404, missing.status());
        assertTrue(missing.contentType().startsWith("application/problem+json"), missing.contentType());
        assertEquals(404, missing.json().get("status").asInt());
    }

    private static JsonNode find(JsonNode plugins, String name) {
        for (JsonNode plugin : plugins) {
            if (plugin.get("name").asText().equals(name)) {
                return plugin;
            }
        }
        throw new AssertionError("plugin " + name + " not listed in " + plugins);
    }
}
