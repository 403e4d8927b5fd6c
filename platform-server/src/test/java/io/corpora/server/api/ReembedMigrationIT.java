package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.testkit.Poll;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.tenancy.NamespacedChunkIds;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A tenant on the default ONNX embedder is migrated to another fingerprint while a reader keeps querying it: every
 * query succeeds with passages (first from the old generation, then from the new one), writes are refused with 409 while
 * the migration holds the tenant, and it ends on the new fingerprint with no chunk of the old generation left.
 */
class ReembedMigrationIT extends DeployedServer {

    private static final int DEFAULT_DOCUMENTS = 16;
    private static final int TEAM_DOCUMENTS = 4;

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @TempDir
    Path models;

    @Test
    void queriesSucceedThroughoutTheMigrationAndItEndsOnTheNewFingerprint() throws IOException {
        String tenant = TenantFixtures.uniqueId("reembed");
        TenantFixtures fixtures = new TenantFixtures(client);
        fixtures.create(tenant, List.of("team"), false);
        String writer = client.token("w", tenant, Roles.WRITER);
        String reader = client.token("r", tenant, Roles.READER);
        String api = "api/v1/tenants/" + tenant + "/";
        LogbookCorpus.ingest(client, fixtures, tenant, writer, null, DEFAULT_DOCUMENTS);
        LogbookCorpus.ingest(client, fixtures, tenant, writer, "team", TEAM_DOCUMENTS);
        String before = client.get("admin/v1/tenants/" + tenant, admin).json().get("activeEmbedder").asText();

        Map<String, Object> target = Map.of("embedder", OtherOnnxEmbedder.meanPooledBge(models));
        assertEquals(403, client.post("admin/v1/tenants/" + tenant + "/embedder:migrate", client.token("ta", tenant, Roles.TENANT_ADMIN),
                target).status(), "changing a tenant's embedder is the platform admin's, like its definition");
        String missing = models.resolve("no-such-model.onnx").toString();
        ServerClient.Response notThere = client.post("admin/v1/tenants/" + tenant + "/embedder:migrate", admin, Map.of("embedder",
                Map.of("provider", "onnx", "config", Map.of("model", "custom", "modelPath", missing, "tokenizerPath", missing))));
        assertEquals(400, notThere.status(), notThere.body());
        assertTrue(notThere.json().get("detail").asText().startsWith("the target embedder 'onnx' could not be started: ")
                && notThere.body().contains("no-such-model.onnx"), "the admin reads the plugin's words: " + notThere.body());
        ServerClient.Response started = client.post("admin/v1/tenants/" + tenant + "/embedder:migrate", admin, target);
        assertEquals(202, started.status(), started.body());
        assertNotNull(started.location(), "202 names the job");
        JsonNode job = started.json();
        assertEquals("reembed", job.get("kind").asText());
        assertEquals(before, job.at("/reembed/from").asText());
        String after = job.at("/reembed/to").asText();
        assertNotEquals(before, after);
        assertEquals(DEFAULT_DOCUMENTS + TEAM_DOCUMENTS, job.get("total").asInt());

        ServerClient.Response refused = client.post(api + "documents", writer, Map.of("id", "late", "text", "A late lantern note."));
        assertEquals(409, refused.status(), "writes wait for the migration: " + refused.body());
        assertTrue(refused.body().contains("migration-in-progress"), refused.body());
        assertNotNull(refused.retryAfter(), "409 says when to retry");
        assertEquals(409, client.delete(api + "documents/log-1", writer).status(), "deletes wait too");
        ServerClient.Response again = client.post("admin/v1/tenants/" + tenant + "/embedder:migrate", admin, target);
        assertEquals(409, again.status(), "one migration at a time: " + again.body());
        assertTrue(again.body().contains("migration-in-progress"), again.body());

        String jobPath = TenantFixtures.serverPath(started.location());
        List<String> servedBy = new ArrayList<>();
        Instant deadline = Instant.now().plus(Duration.ofMinutes(4));
        while (!TenantFixtures.finished(job)) {
            assertTrue(Instant.now().isBefore(deadline), "the migration did not finish within 4 minutes: " + job);
            for (String partition : new String[] {null, "team"}) {
                JsonNode answer = retrieve(api, reader, partition);
                servedBy.add(answer.at("/diagnostics/embedder").asText());
            }
            job = client.get(jobPath, admin).json();
        }
        long servedByOld = servedBy.stream().filter(before::equals).count();
        System.out.println("ReembedMigrationIT: " + servedBy.size() + " queries while the migration ran, " + servedByOld
                + " served by " + before + ", " + (servedBy.size() - servedByOld) + " by " + after);
        assertTrue(servedByOld >= 2, "queries ran while the old generation served: " + servedBy);
        assertTrue(servedBy.stream().allMatch(e -> e.equals(before) || e.equals(after)), servedBy.toString());
        assertEquals(servedBy.stream().dropWhile(before::equals).filter(before::equals).count(), 0,
                "the switch is one-way and atomic: " + servedBy);

        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
        assertEquals(100, job.get("percent").asInt());
        assertEquals(DEFAULT_DOCUMENTS + TEAM_DOCUMENTS, job.get("succeeded").asInt(), job.toString());
        JsonNode definition = client.get("admin/v1/tenants/" + tenant, admin).json();
        assertEquals(after, definition.get("activeEmbedder").asText());
        assertEquals("mean", definition.at("/embedder/config/pooling").asText(), definition.toString());
        for (String partition : new String[] {null, "team"}) {
            assertEquals(after, retrieve(api, reader, partition).at("/diagnostics/embedder").asText());
        }

        long registered = client.get(api + "stats", reader).json().get("chunks").asLong();
        long stored = 0;
        for (String partition : new String[] {null, "team"}) {
            JsonNode verify = client.get(api + "index:verify" + (partition == null ? "" : "?partition=" + partition), writer).json();
            assertTrue(verify.get("consistent").asBoolean(), verify.toString());
            stored += verify.get("chunks").asLong();
        }
        assertEquals(registered, stored, "exactly one generation is stored: the old one is gone");
        JsonNode chunks = client.get(api + "documents/log-0/chunks", reader).json().get("chunks");
        assertFalse(chunks.isEmpty());
        for (JsonNode chunk : chunks) {
            assertTrue(chunk.get("id").asText().endsWith("~" + NamespacedChunkIds.generationTag(after)), chunk.toString());
        }

        assertEquals(201, client.post(api + "documents", writer, Map.of("id", "late", "text", "A late lantern note.")).status(),
                "writes are accepted again, on the new embedder");
        awaitAudited(tenant, "tenant.embedder.migrate");
        awaitAudited(tenant, "tenant.embedder.migrated");
    }

    /** Waits until the audit log holds a successful {@code action} for the tenant (the end is written just after the job). */
    private void awaitAudited(String tenant, String action) {
        Poll.until(action + " audited as a success", Duration.ofSeconds(10), () -> client.get("admin/v1/audit?tenant=" + tenant
                + "&action=" + action, admin).json().toString().contains("\"success\""));
    }

    private JsonNode retrieve(String api, String reader, String partition) {
        Map<String, Object> request = new LinkedHashMap<>();
        request.put("query", LogbookCorpus.QUERY);
        request.put("mode", "hybrid");
        if (partition != null) {
            request.put("partition", partition);
        }
        ServerClient.Response response = client.post(api + "retrieve", reader, request);
        assertEquals(200, response.status(), "a query during the migration failed: " + response.body());
        JsonNode body = response.json();
        assertFalse(body.get("passages").isEmpty(), "a query during the migration found nothing: " + body);
        return body;
    }
}
