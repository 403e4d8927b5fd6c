package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;

/** Creates tenants through the admin API and waits on jobs, for the data-plane integration tests. */
public final class TenantFixtures {

    private final ServerClient client;
    private final String admin;

    public TenantFixtures(ServerClient client) {
        this.client = client;
        this.admin = client.token("ops", null, Roles.PLATFORM_ADMIN);
    }

    /** A tenant id unique to this run, so reruns against a kept server never share state. */
    public static String uniqueId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates a tenant on the embedded defaults (Lucene store, ONNX embedder), optionally with partitions and the audience hook. */
    public void create(String id, List<String> partitions, boolean audienceHook) {
        Map<String, Object> definition = embeddedDefaults(id);
        Map<String, Object> access = new LinkedHashMap<>();
        access.put("partitions", partitions);
        if (audienceHook) {
            access.put("filterHook", Map.of("provider", "audience", "config", Map.of("key", "audience",
                    "templates", List.of("public", "user:{sub}", "group:{groups}"))));
        }
        definition.put("access", access);
        create(definition);
    }

    /** A tenant definition on the embedded defaults (Lucene store, ONNX embedder), to add fields to before {@link #create(Map)}. */
    static Map<String, Object> embeddedDefaults(String id) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("id", id);
        definition.put("displayName", "Test tenant " + id);
        definition.put("store", Map.of("provider", "lucene"));
        definition.put("embedder", Map.of("provider", "onnx"));
        definition.put("retrieval", Map.of("mode", "hybrid", "topK", 10));
        return definition;
    }

    void create(Map<String, Object> definition) {
        ServerClient.Response created = client.post("admin/v1/tenants", admin, definition);
        assertTrue(created.status() == 201 || created.status() == 200, "create " + definition.get("id") + ": " + created.status() + " " + created.body());
    }

    /** Polls a job until it finishes (deadline 2 minutes); returns its final JSON. */
    public JsonNode awaitJob(String location, String token) {
        Instant deadline = Instant.now().plus(Duration.ofMinutes(2));
        String path = location.substring(location.indexOf("api/v1/"));
        while (Instant.now().isBefore(deadline)) {
            JsonNode job = client.get(path, token).json();
            String status = job.get("status").asText();
            if (!status.equals("QUEUED") && !status.equals("RUNNING")) {
                return job;
            }
            try {
                Thread.sleep(50); // polling, not spinning: CI has two cores
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for job " + location, e);
            }
        }
        throw new AssertionError("job " + location + " did not finish within 2 minutes");
    }
}
