package io.corpora.server.admin;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.server.api.MessagesLog;
import io.corpora.server.api.TenantFixtures;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The tenant admin API over HTTP on the real WAR in Open Liberty, with the control plane on its embedded H2 database
 * (migrated at boot) and the packaged tenants-config synced at boot. Tenant ids are unique per run: the server's data
 * directory outlives a run.
 */
class TenantAdminIT extends DeployedServer {

    private final ServerClient http = ServerClient.fromBuild();
    private final String run = UUID.randomUUID().toString().substring(0, 8);
    private final String admin = http.token("ops-" + run, null, Roles.PLATFORM_ADMIN);

    private static String tenantJson(String id, String displayName) {
        return """
                {"id": "%s", "displayName": "%s", "store": {"provider": "lucene"}, "embedder": {"provider": "onnx"},
                 "retrieval": {"mode": "vector", "topK": 7}, "access": {"partitions": ["legal"]}}
                """.formatted(id, displayName);
    }

    @Test
    void theBootSyncCreatedThePackagedExampleTenants() {
        ServerClient.Response demo = http.get("admin/v1/tenants/demo", admin);
        assertEquals(200, demo.status(), demo.body());
        assertEquals("lucene", demo.json().at("/store/provider").asText());
        assertEquals("onnx", demo.json().at("/embedder/provider").asText());
        ServerClient.Response acme = http.get("admin/v1/tenants/acme", admin);
        assertEquals(200, acme.status(), acme.body());
        assertEquals("audience", acme.json().at("/access/filterHook/provider").asText());
        assertEquals("public,role:{roles},user:{sub},group:{groups}", acme.json().at("/access/filterHook/config/templates").asText());
    }

    @Test
    void aTenantIsCreatedReadUpdatedAndItsStateSet() {
        String id = "it-" + run;
        ServerClient.Response created = http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "First"));
        assertEquals(201, created.status(), created.body());
        assertTrue(created.location().endsWith("/admin/v1/tenants/" + id), created.location());
        assertEquals("ACTIVE", created.json().get("state").asText());
        long revision = created.json().get("revision").asLong();

        ServerClient.Response duplicate = http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Again"));
        assertEquals(409, duplicate.status(), duplicate.body());
        assertTrue(duplicate.isProblem());

        ServerClient.Response read = http.get("admin/v1/tenants/" + id, admin);
        assertEquals(200, read.status());
        assertEquals(7, read.json().at("/retrieval/topK").asInt());
        assertEquals("legal", read.json().at("/access/partitions/0").asText());

        ServerClient.Response inactive = http.send("POST", "admin/v1/tenants/" + id + "/state", admin, "{\"state\": \"INACTIVE\"}");
        assertEquals(200, inactive.status(), inactive.body());
        assertEquals("INACTIVE", inactive.json().get("state").asText());

        // An update without a state keeps the current one; the revision moves on.
        String renamed = tenantJson(id, "Renamed").replace("\"id\": \"" + id + "\", ", "");
        ServerClient.Response updated = http.send("PUT", "admin/v1/tenants/" + id, admin, renamed);
        assertEquals(200, updated.status(), updated.body());
        assertEquals("Renamed", updated.json().get("displayName").asText());
        assertEquals("INACTIVE", updated.json().get("state").asText());
        assertTrue(updated.json().get("revision").asLong() > revision);

        ServerClient.Response otherId = http.send("PUT", "admin/v1/tenants/" + id, admin, tenantJson("someone-else", "X"));
        assertEquals(400, otherId.status(), otherId.body());
        assertEquals("/id", otherId.json().at("/errors/0/pointer").asText());

        ServerClient.Response deletingByState = http.send("POST", "admin/v1/tenants/" + id + "/state", admin, "{\"state\": \"DELETING\"}");
        assertEquals(400, deletingByState.status(), deletingByState.body());
        ServerClient.Response nonsense = http.send("POST", "admin/v1/tenants/" + id + "/state", admin, "{\"state\": \"ASLEEP\"}");
        assertEquals(400, nonsense.status(), nonsense.body());
        assertTrue(nonsense.json().get("detail").asText().contains("ACTIVE, INACTIVE or OFFLOADED"), nonsense.body());
    }

    @Test
    void aRefusedCreateIsAnAnswerNotAnIncident() throws Exception {
        String id = "twice-" + run;
        assertEquals(201, http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Once")).status());
        ServerClient.Response again = http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Twice"));
        assertEquals(409, again.status(), again.body());
        assertEquals("https://corpora.dev/problems/tenant-conflict", again.json().get("type").asText(), again.body());

        // Liberty's @Transactional reports every exception leaving it as an FFDC incident; the control plane's refusals
        // are answered 409 and must not leave an incident report behind.
        String refusal = "tenant '" + id + "' already exists";
        List<String> incidents = MessagesLog.incidentReports().stream().filter(r -> r.contains(refusal)).toList();
        assertTrue(incidents.isEmpty(), "FFDC incident reports for a refused create: " + incidents);
        assertTrue(MessagesLog.jsonRecords().noneMatch(r -> "FFDC1015I".equals(r.path("ibm_messageId").asText())
                && r.path("message").asText().contains(refusal)), "an FFDC1015I line for a refused create");
    }

    @Test
    void unknownTenantsAre404ProblemJson() {
        for (ServerClient.Response reply : List.of(
                http.get("admin/v1/tenants/no-such-" + run, admin),
                http.send("PUT", "admin/v1/tenants/no-such-" + run, admin, tenantJson("no-such-" + run, "X")),
                http.send("POST", "admin/v1/tenants/no-such-" + run + "/state", admin, "{\"state\": \"INACTIVE\"}"),
                http.send("DELETE", "admin/v1/tenants/no-such-" + run, admin, null),
                http.send("POST", "admin/v1/tenants/no-such-" + run + ":purge", admin, null))) {
            assertEquals(404, reply.status(), reply.body());
            assertTrue(reply.isProblem(), reply.contentType());
            assertTrue(reply.json().get("detail").asText().contains("no-such-" + run), reply.body());
        }
    }

    @Test
    void invalidDefinitionsAre400WithEveryFieldAndReason() {
        String body = """
                {"id": "bad-%s", "store": {"provider": "pgvector", "config": {"password": "hunter2"}}, "colour": "blue"}
                """.formatted(run);
        ServerClient.Response reply = http.send("POST", "admin/v1/tenants", admin, body);
        assertEquals(400, reply.status(), reply.body());
        assertTrue(reply.isProblem());
        Set<String> pointers = new HashSet<>();
        reply.json().get("errors").forEach(e -> {
            pointers.add(e.get("pointer").asText());
            assertEquals("request", e.get("file").asText());
            assertTrue(!e.get("reason").asText().isBlank());
        });
        assertEquals(Set.of("/embedder", "/colour", "/store/config/password"), pointers, reply.body());
        assertEquals(404, http.get("admin/v1/tenants/bad-" + run, admin).status(), "nothing was created");

        ServerClient.Response malformed = http.send("POST", "admin/v1/tenants", admin, "{\"id\": ");
        assertEquals(400, malformed.status(), malformed.body());
        assertTrue(malformed.json().at("/errors/0/reason").asText().startsWith("not valid JSON (line 1"), malformed.body());

        String tooDeep = "[".repeat(5_000) + "]".repeat(5_000); // past the parser's nesting limit, whose failure has no position
        for (ServerClient.Response deep : List.of(http.send("POST", "admin/v1/tenants", admin, tooDeep),
                http.send("PUT", "admin/v1/tenants/demo", admin, tooDeep), http.send("POST", "admin/v1/tenants/demo/state", admin, tooDeep))) {
            assertEquals(400, deep.status(), deep.body());
            assertTrue(deep.json().at("/errors/0/reason").asText().startsWith("not valid JSON: Document nesting depth"), deep.body());
        }
    }

    @Test
    void anIdNoTenantCanHaveIsAClientErrorAndIsStillAudited() {
        String pathId = "x".repeat(3_000);
        Instant before = Instant.now().minusSeconds(5);
        assertEquals(400, http.send("PUT", "admin/v1/tenants/" + pathId, admin, tenantJson(pathId, "Long")).status());
        for (ServerClient.Response reply : List.of(
                http.send("POST", "admin/v1/tenants/" + pathId + "/state", admin, "{\"state\": \"INACTIVE\"}"),
                http.send("DELETE", "admin/v1/tenants/" + pathId, admin, null),
                http.send("POST", "admin/v1/tenants/" + pathId + ":purge", admin, null))) {
            assertEquals(404, reply.status(), reply.body());
            assertTrue(reply.isProblem(), reply.contentType());
        }
        ServerClient.Response trail = http.get("admin/v1/audit?action=tenant.state&since=" + before, admin);
        List<JsonNode> mine = new ArrayList<>();
        trail.json().get("events").forEach(e -> {
            if (e.get("actor").asText().equals("ops-" + run)) {
                mine.add(e);
            }
        });
        assertEquals(1, mine.size(), trail.body());
        assertTrue(mine.get(0).get("tenant").isNull(), mine.get(0).toString());
        assertTrue(mine.get(0).get("target").asText().startsWith("xxxx") && mine.get(0).get("target").asText().endsWith("…"), mine.get(0).toString());
        assertEquals("failure", mine.get(0).get("outcome").asText());
    }

    /** A plugin choice this server cannot create is refused at its field before anything is stored (it was 201, then 400 on every call). */
    @Test
    void pluginChoicesThisServerCannotCreateAre400AtTheirField() {
        String body = """
                {"id": "unmade-%s", "store": {"provider": "no-such-store"}, "embedder": {"provider": "onnx", "config": {"bogus": "1"}},
                 "access": {"filterHook": {"provider": "audience", "config": {"key": "${config:corpora.it.unset.key}"}}}}
                """.formatted(run);
        ServerClient.Response reply = http.send("POST", "admin/v1/tenants", admin, body);
        assertEquals(400, reply.status(), reply.body());
        Map<String, String> reasons = new java.util.TreeMap<>();
        reply.json().get("errors").forEach(e -> reasons.put(e.get("pointer").asText(), e.get("reason").asText()));
        assertEquals(Set.of("/store/provider", "/embedder/config", "/access/filterHook/config"), reasons.keySet(), reply.body());
        assertTrue(reasons.get("/store/provider").contains("lucene"), "names the stores loaded: " + reasons);
        assertTrue(reasons.get("/embedder/config").contains("unknown option 'bogus'"), reasons.toString());
        assertTrue(reasons.get("/access/filterHook/config").contains("corpora.it.unset.key"), reasons.toString());
        assertEquals(404, http.get("admin/v1/tenants/unmade-" + run, admin).status(), "nothing was created");

        String id = "made-" + run;
        assertEquals(201, http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Made")).status());
        ServerClient.Response update = http.send("PUT", "admin/v1/tenants/" + id, admin, tenantJson(id, "Made").replace("\"onnx\"", "\"no-such-embedder\""));
        assertEquals(400, update.status(), update.body());
        assertEquals("/embedder/provider", update.json().at("/errors/0/pointer").asText(), update.body());
        assertEquals("onnx", http.get("admin/v1/tenants/" + id, admin).json().at("/embedder/provider").asText(), "the update changed nothing");
    }

    /**
     * A tenant whose store will not open (a database that does not answer): its calls are 503 without the plugin's words,
     * and its purge is refused (it stays DELETING) until the store opens or the operator chooses to leave the store's data.
     */
    @Test
    void aTenantWhoseStoreWillNotOpenIs503AndItsPurgeCanLeaveTheStoreData() {
        String id = "unreachable-" + run;
        assertEquals(201, http.post("admin/v1/tenants", admin, TenantFixtures.withUnopenableStore(id)).status(),
                "its options are valid: reachability is not checked");
        String writer = http.token("w-" + run, id, Roles.WRITER, Roles.READER);
        for (ServerClient.Response call : List.of(http.send("POST", "api/v1/tenants/" + id + "/retrieve", writer, "{\"query\": \"tides\"}"),
                http.send("POST", "api/v1/tenants/" + id + "/documents", writer, "{\"id\": \"d\", \"text\": \"tides\"}"))) {
            assertEquals(503, call.status(), call.body());
            assertTrue(call.json().get("type").asText().endsWith("/plugin-unavailable"), call.body());
            assertTrue(call.body().contains("vector-store plugin 'pgvector'") && call.json().hasNonNull("incident"), call.body());
            assertEquals("5", call.retryAfter(), "the pause before the server tries to start it again");
            assertFalse(call.body().contains("127.0.0.1") || call.body().contains("nowhere"), "no host or database of the operator's: " + call.body());
        }
        ServerClient.Response plugins = http.get("admin/v1/tenants/" + id + "/plugins", admin);
        assertEquals(200, plugins.status(), plugins.body());
        assertFalse(plugins.json().get("up").asBoolean(), plugins.body());
        assertEquals("store", plugins.json().at("/plugins/0/field").asText(), plugins.body());
        assertFalse(plugins.json().at("/plugins/0/up").asBoolean(), plugins.body());
        assertTrue(plugins.json().at("/plugins/0/problem").asText().contains("127.0.0.1:1"), "the operator gets the plugin's words: " + plugins.body());
        assertTrue(plugins.json().at("/plugins/1/up").asBoolean(), "the embedder starts: " + plugins.body());
        assertEquals(403, http.get("admin/v1/tenants/" + id + "/plugins", writer).status(), "not for the tenant's callers");

        assertEquals(202, http.send("DELETE", "admin/v1/tenants/" + id, admin, null).status());
        ServerClient.Response refused = http.send("POST", "admin/v1/tenants/" + id + ":purge", admin, null);
        assertEquals(503, refused.status(), refused.body());
        assertTrue(refused.json().get("type").asText().endsWith("/store-unavailable"), refused.body());
        assertTrue(refused.body().contains("leaveStoreData=true"), refused.body());
        assertEquals("DELETING", http.get("admin/v1/tenants/" + id, admin).json().get("state").asText(), "refused: nothing removed");

        ServerClient.Response purged = http.send("POST", "admin/v1/tenants/" + id + ":purge?leaveStoreData=true", admin, null);
        assertEquals(200, purged.status(), purged.body());
        assertEquals(404, http.get("admin/v1/tenants/" + id, admin).status());
    }

    /** A tenant whose plugins all start, its store answering; and a tenant that does not exist. */
    @Test
    void thePluginsOfAServableTenantAreAllUp() {
        String id = "plugins-" + run;
        assertEquals(201, http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Plugins")).status());
        ServerClient.Response plugins = http.get("admin/v1/tenants/" + id + "/plugins", admin);
        assertEquals(200, plugins.status(), plugins.body());
        assertTrue(plugins.json().get("up").asBoolean(), plugins.body());
        List<String> fields = new java.util.ArrayList<>();
        plugins.json().get("plugins").forEach(p -> {
            fields.add(p.get("field").asText());
            assertTrue(p.get("up").asBoolean() && !p.hasNonNull("problem"), plugins.body());
        });
        assertEquals(List.of("store", "embedder"), fields.subList(0, 2), plugins.body());
        assertEquals(404, http.get("admin/v1/tenants/no-such-" + run + "/plugins", admin).status());
    }

    @Test
    void deletionIsTwoStepMarkThenPurge() {
        String id = "gone-" + run;
        assertEquals(201, http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Doomed")).status());

        ServerClient.Response notYet = http.send("POST", "admin/v1/tenants/" + id + ":purge", admin, null);
        assertEquals(409, notYet.status(), "an ACTIVE tenant cannot be purged: " + notYet.body());

        ServerClient.Response marked = http.send("DELETE", "admin/v1/tenants/" + id, admin, null);
        assertEquals(202, marked.status(), marked.body());
        assertEquals("DELETING", marked.json().get("state").asText());
        assertEquals("DELETING", http.get("admin/v1/tenants/" + id, admin).json().get("state").asText(), "step one removes nothing");
        assertEquals(409, http.send("PUT", "admin/v1/tenants/" + id, admin, tenantJson(id, "Revived")).status());
        assertEquals(409, http.send("POST", "admin/v1/tenants/" + id + "/state", admin, "{\"state\": \"ACTIVE\"}").status());

        ServerClient.Response purged = http.send("POST", "admin/v1/tenants/" + id + ":purge", admin, null);
        assertEquals(200, purged.status(), purged.body());
        assertTrue(purged.json().get("purged").asBoolean());
        assertEquals(404, http.get("admin/v1/tenants/" + id, admin).status());
        assertEquals(404, http.send("POST", "admin/v1/tenants/" + id + ":purge", admin, null).status());

        List<String> trail = new ArrayList<>();
        http.get("admin/v1/audit?tenant=" + id, admin).json().get("events").forEach(e -> trail.add(e.get("action").asText() + ":" + e.get("outcome").asText()));
        assertTrue(trail.containsAll(List.of("tenant.purge:success", "tenant.delete:success", "tenant.purge:failure", "tenant.create:success")),
                "the audit trail outlives the purged tenant: " + trail);
    }

    @Test
    void theListPagesByIdUntilNextIsNull() {
        List<String> mine = List.of("page-" + run + "-a", "page-" + run + "-b", "page-" + run + "-c");
        for (String id : mine) {
            assertEquals(201, http.send("POST", "admin/v1/tenants", admin, tenantJson(id, id)).status());
        }
        List<String> seen = new ArrayList<>();
        String after = "";
        int pages = 0;
        while (after != null) {
            ServerClient.Response page = http.get("admin/v1/tenants?limit=2&after=" + after, admin);
            assertEquals(200, page.status(), page.body());
            page.json().get("tenants").forEach(t -> seen.add(t.get("id").asText()));
            JsonNode next = page.json().get("next");
            after = next.isNull() ? null : next.asText();
            assertTrue(++pages < 10_000, "paging terminates");
        }
        assertTrue(seen.containsAll(mine), seen.toString());
        assertEquals(seen.stream().sorted().toList(), seen, "ordered by id");
        assertEquals(new HashSet<>(seen).size(), seen.size(), "no tenant on two pages");
        assertEquals(400, http.get("admin/v1/tenants?limit=0", admin).status());
        assertEquals(400, http.get("admin/v1/tenants?limit=201", admin).status());
    }

    @Test
    void syncReportsTheFilesAndTenantsThatExistOnlyInTheDatabase() {
        String apiOnly = "api-only-" + run;
        assertEquals(201, http.send("POST", "admin/v1/tenants", admin, tenantJson(apiOnly, "Made by the API")).status());

        ServerClient.Response report = http.send("POST", "admin/v1/tenants:sync", admin, null);
        assertEquals(200, report.status(), report.body());
        JsonNode body = report.json();
        Set<String> fromFiles = new HashSet<>();
        for (String field : List.of("created", "updated", "unchanged")) {
            body.get(field).forEach(id -> fromFiles.add(id.asText()));
        }
        assertTrue(fromFiles.containsAll(Set.of("demo", "acme")), body.toString());
        assertEquals(0, body.get("invalid").size(), body.toString());
        List<String> onlyInDatabase = new ArrayList<>();
        body.get("onlyInDatabase").forEach(id -> onlyInDatabase.add(id.asText()));
        assertTrue(onlyInDatabase.contains(apiOnly), body.toString());
        assertEquals(200, http.get("admin/v1/tenants/" + apiOnly, admin).status(), "sync never deletes");

        ServerClient.Response again = http.send("POST", "admin/v1/tenants:sync", admin, null);
        assertTrue(again.json().get("created").isEmpty() && again.json().get("updated").isEmpty(), "a second sync changes nothing: " + again.body());
    }

    @Test
    void everyChangeIsAuditedWithTheCallersSubject() {
        String id = "audited-" + run;
        Instant before = Instant.now().minusSeconds(5);
        assertEquals(201, http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Audited")).status());
        assertEquals(200, http.send("POST", "admin/v1/tenants/" + id + "/state", admin, "{\"state\": \"INACTIVE\"}").status());
        assertEquals(409, http.send("POST", "admin/v1/tenants", admin, tenantJson(id, "Twice")).status());

        ServerClient.Response trail = http.get("admin/v1/audit?tenant=" + id + "&since=" + before, admin);
        assertEquals(200, trail.status(), trail.body());
        List<String> entries = new ArrayList<>();
        trail.json().get("events").forEach(e -> {
            assertEquals("ops-" + run, e.get("actor").asText());
            assertEquals(id, e.get("tenant").asText());
            entries.add(e.get("action").asText() + ":" + e.get("outcome").asText());
        });
        assertEquals(List.of("tenant.create:failure", "tenant.state:success", "tenant.create:success"), entries, "newest first");

        ServerClient.Response creates = http.get("admin/v1/audit?tenant=" + id + "&action=tenant.state", admin);
        assertEquals(1, creates.json().get("events").size(), creates.body());
        assertEquals("INACTIVE", creates.json().at("/events/0/details/state").asText());
        ServerClient.Response future = http.get("admin/v1/audit?tenant=" + id + "&since=" + Instant.now().plusSeconds(3600), admin);
        assertEquals(0, future.json().get("events").size());
        assertEquals(400, http.get("admin/v1/audit?since=yesterday", admin).status());
        assertEquals(400, http.get("admin/v1/audit?limit=5000", admin).status());
    }

    @Test
    void onlyPlatformAdminsMayAdministerTenants() {
        String tenantAdmin = http.token("alice", "acme", Roles.TENANT_ADMIN);
        String reader = http.token("bob", "acme", Roles.READER, Roles.WRITER);
        for (String token : List.of(tenantAdmin, reader)) {
            assertEquals(403, http.get("admin/v1/tenants", token).status());
            assertEquals(403, http.get("admin/v1/tenants/acme", token).status());
            assertEquals(403, http.send("POST", "admin/v1/tenants", token, tenantJson("x-" + run, "X")).status());
            assertEquals(403, http.send("PUT", "admin/v1/tenants/acme", token, tenantJson("acme", "Hijacked")).status());
            assertEquals(403, http.send("POST", "admin/v1/tenants/acme/state", token, "{\"state\": \"INACTIVE\"}").status());
            assertEquals(403, http.send("DELETE", "admin/v1/tenants/acme", token, null).status());
            assertEquals(403, http.send("POST", "admin/v1/tenants/acme:purge", token, null).status());
            assertEquals(403, http.send("POST", "admin/v1/tenants:sync", token, null).status());
            assertEquals(403, http.get("admin/v1/audit", token).status());
        }
        assertEquals(401, http.get("admin/v1/tenants", null).status());
        ServerClient.Response denied = http.get("admin/v1/audit?action=admin.denied&limit=50", admin);
        List<String> deniedCalls = new ArrayList<>();
        denied.json().get("events").forEach(e -> {
            if (e.get("actor").asText().equals("alice")) {
                deniedCalls.add(e.get("target").asText() + ":" + e.get("outcome").asText());
            }
        });
        assertTrue(deniedCalls.contains("DELETE /admin/v1/tenants/acme:denied"), deniedCalls.toString());
        ServerClient.Response acme = http.get("admin/v1/tenants/acme", admin);
        assertEquals(200, acme.status());
        assertEquals("ACTIVE", acme.json().get("state").asText(), "none of the refused calls changed acme");
        assertNotNull(acme.json().get("displayName"));
    }
}
