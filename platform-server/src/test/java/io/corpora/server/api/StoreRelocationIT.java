package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.testkit.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code POST /admin/v1/tenants/{id}/store:relocate} over HTTP: bad targets are problem+json 4xx, a Lucene tenant moves
 * to a pgvector table (the test database) with writes refused meanwhile, ends SUCCEEDED on the new store answering
 * the same passages, and both ends are audited; the tenant cannot be deleted meanwhile.
 */
class StoreRelocationIT extends DeployedServer {

    private static final int DOCUMENTS = 8;
    private static final String TABLE = "it_relocation_http";

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @Test
    void aLuceneTenantMovesToPgvectorServingTheSamePassagesAndBadTargetsAreProblems() throws Exception {
        String pgUrl = TenantFixtures.pgvectorUrlWithoutTable(TABLE);
        String tenant = TenantFixtures.uniqueId("reloc");
        TenantFixtures fixtures = new TenantFixtures(client);
        fixtures.create(tenant, List.of(), false);
        String writer = client.token("w", tenant, Roles.WRITER);
        String reader = client.token("r", tenant, Roles.READER);
        String api = "api/v1/tenants/" + tenant + "/";
        String relocate = "admin/v1/tenants/" + tenant + "/store:relocate";
        LogbookCorpus.ingest(client, fixtures, tenant, writer, null, DOCUMENTS);
        List<String> before = passages(api, reader);

        assertEquals(403, client.post(relocate, client.token("ta", tenant, Roles.TENANT_ADMIN), Map.of("store", Map.of("provider", "pgvector")))
                .status(), "moving a tenant's data is the platform admin's");
        assertProblem(400, client.post(relocate, admin, Map.of("store", Map.of("provider", "no-such-store"))), "no-such-store");
        assertProblem(400, client.post(relocate, admin, Map.of("store", Map.of("provider", "pgvector", "config",
                Map.of("jdbcUrl", pgUrl, "poolSize", "0")))), "poolSize");
        assertProblem(400, client.post(relocate, admin, Map.of("embedder", Map.of("provider", "onnx"))), "store");
        assertProblem(400, client.post(relocate, admin, Map.of("store", Map.of("provider", "pgvector", "config",
                Map.of("jdbcUrl", TenantFixtures.UNREACHABLE_PG_URL)))), "the target pgvector store cannot be opened: ");
        assertProblem(409, client.post(relocate, admin, Map.of("store", Map.of("provider", "lucene", "config", Map.of("quantization", "int8")))),
                "store-unchanged");

        Map<String, Object> target = Map.of("store", Map.of("provider", "pgvector", "config",
                Map.of("jdbcUrl", pgUrl, "table", TABLE, "ensureSchema", "true")));
        // An offloaded tenant is refused for its state (it was a 400 naming a "/state" the caller never sent).
        String state = "admin/v1/tenants/" + tenant + "/state";
        assertEquals(200, client.post(state, admin, Map.of("state", "OFFLOADED")).status());
        assertProblem(409, client.post(relocate, admin, target), "tenant-not-active");
        assertEquals(200, client.post(state, admin, Map.of("state", "ACTIVE")).status());
        ServerClient.Response started = client.post(relocate, admin, target);
        assertEquals(202, started.status(), started.body());
        assertNotNull(started.location(), "202 names the job");
        JsonNode job = started.json();
        assertEquals("relocate", job.get("kind").asText());
        assertEquals(DOCUMENTS, job.get("total").asInt());
        ServerClient.Response refused = client.post(api + "documents", writer, Map.of("id", "late", "text", "A late lantern note."));
        assertEquals(409, refused.status(), "writes wait for the relocation: " + refused.body());
        assertTrue(refused.body().contains("migration-in-progress"), refused.body());
        assertNotNull(refused.retryAfter());
        assertProblem(409, client.post(relocate, admin, target), "migration-in-progress");
        assertProblem(409, client.delete("admin/v1/tenants/" + tenant, admin), "being migrated");
        assertEquals("ACTIVE", client.get("admin/v1/tenants/" + tenant, admin).json().get("state").asText(),
                "a tenant is not marked for deletion under a relocation (its purge would leave a copy behind)");

        List<List<String>> during = new ArrayList<>();
        String jobPath = TenantFixtures.serverPath(started.location());
        while (!TenantFixtures.finished(job)) {
            during.add(passages(api, reader));
            job = client.get(jobPath, admin).json();
        }
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
        assertEquals(DOCUMENTS, job.get("succeeded").asInt(), job.toString());
        assertEquals(100, job.get("percent").asInt());
        assertTrue(during.stream().allMatch(before::equals), "every retrieve during the relocation answered as before: " + during);
        System.out.println("StoreRelocationIT: " + during.size() + " retrieves while the relocation ran, all as before");

        assertEquals("pgvector", client.get("admin/v1/tenants/" + tenant, admin).json().at("/store/provider").asText());
        assertEquals(before, passages(api, reader), "the pgvector copy answers the same passages");
        assertEquals(201, client.post(api + "documents", writer, Map.of("id", "late", "text", "A late lantern note.")).status(),
                "writes are accepted again, into the new store");
        awaitAudited(tenant, "tenant.store.relocate");
        awaitAudited(tenant, "tenant.store.relocated");
    }

    private void assertProblem(int status, ServerClient.Response response, String mentioned) {
        assertEquals(status, response.status(), response.body());
        assertTrue(response.contentType().startsWith("application/problem+json"), response.contentType());
        assertTrue(response.body().contains(mentioned), response.body());
    }

    private void awaitAudited(String tenant, String action) {
        Poll.until(action + " audited as a success", Duration.ofSeconds(10), () -> client.get("admin/v1/audit?tenant=" + tenant
                + "&action=" + action, admin).json().toString().contains("\"success\""));
    }

    /** Passage ids and texts of a hybrid retrieve, in rank order. */
    private List<String> passages(String api, String reader) {
        ServerClient.Response response = client.post(api + "retrieve", reader, Map.of("query", LogbookCorpus.QUERY, "mode", "hybrid"));
        assertEquals(200, response.status(), response.body());
        List<String> passages = new ArrayList<>();
        response.json().get("passages").forEach(p -> passages.add(p.get("id").asText() + " " + p.get("text").asText()));
        assertTrue(!passages.isEmpty(), response.body());
        return passages;
    }
}
