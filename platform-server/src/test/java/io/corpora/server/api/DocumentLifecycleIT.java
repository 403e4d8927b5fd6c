package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** A document's life over HTTP on the embedded defaults: ingest, dedupe, replace, delete, batches and bad input. */
class DocumentLifecycleIT extends DeployedServer {

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String T = TenantFixtures.uniqueId("life");
    private static final String DOCS = "api/v1/tenants/" + T + "/documents";

    @BeforeAll
    static void tenant() {
        FIXTURES.create(T, List.of(), false);
    }

    private static String writer() {
        return CLIENT.token("writer", T, Roles.WRITER);
    }

    private static String reader() {
        return CLIENT.token("reader", T, Roles.READER);
    }

    private static JsonNode search(String query) {
        ServerClient.Response response = CLIENT.post("api/v1/tenants/" + T + "/retrieve", reader(), Map.of("query", query, "mode", "keyword", "topK", 10));
        assertEquals(200, response.status(), response.body());
        return response.json();
    }

    private static List<String> texts(JsonNode result) {
        List<String> texts = new ArrayList<>();
        result.get("passages").forEach(p -> texts.add(p.get("text").asText()));
        return texts;
    }

    @Test
    void ingestDedupeReplaceAndDelete() {
        String v1 = "Expense policy.\n\nMeals are reimbursed up to forty euros per day.\n\nTaxis need a receipt.";
        ServerClient.Response created = CLIENT.post(DOCS, writer(), Map.of("id", "expenses", "text", v1, "source", "policy.md"));
        assertEquals(201, created.status(), created.body());
        assertEquals(1, created.json().get("version").asInt());
        assertTrue(texts(search("meals reimbursed")).stream().anyMatch(t -> t.contains("forty euros")));

        ServerClient.Response again = CLIENT.post(DOCS, writer(), Map.of("id", "expenses", "text", v1, "source", "policy.md"));
        assertEquals(200, again.status(), again.body());
        assertTrue(again.json().get("skipped").asBoolean(), again.body());
        assertEquals(1, again.json().get("version").asInt());

        String v2 = v1.replace("forty euros", "sixty-five euros");
        ServerClient.Response replaced = CLIENT.post(DOCS, writer(), Map.of("id", "expenses", "text", v2, "source", "policy.md"));
        assertEquals(201, replaced.status(), replaced.body());
        assertEquals(2, replaced.json().get("version").asInt());
        List<String> found = texts(search("meals reimbursed euros"));
        assertTrue(found.stream().anyMatch(t -> t.contains("sixty-five euros")), found.toString());
        assertFalse(found.stream().anyMatch(t -> t.contains("forty euros")), "the old version must be gone: " + found);

        JsonNode document = CLIENT.get(DOCS + "/expenses", reader()).json();
        assertEquals("ACTIVE", document.get("status").asText());
        assertEquals(2, document.get("version").asInt());
        JsonNode chunks = CLIENT.get(DOCS + "/expenses/chunks", reader()).json().get("chunks");
        assertEquals(document.get("chunks").asInt(), chunks.size());

        JsonNode verify = CLIENT.get("api/v1/tenants/" + T + "/index:verify", writer()).json();
        assertTrue(verify.get("consistent").asBoolean(), verify.toString());

        assertEquals(204, CLIENT.delete(DOCS + "/expenses", writer()).status());
        assertEquals(404, CLIENT.get(DOCS + "/expenses", reader()).status());
        assertTrue(texts(search("meals reimbursed euros")).stream().noneMatch(t -> t.contains("euros")));
        ServerClient.Response missing = CLIENT.delete(DOCS + "/expenses", writer());
        assertEquals(404, missing.status());
        assertTrue(missing.contentType().startsWith("application/problem+json"));
    }

    @Test
    void aBadDocumentInABatchFailsAloneAndTheJobReportsEachOutcome() {
        List<Map<String, Object>> batch = List.of(
                Map.of("id", "good-1", "text", "Badgers are nocturnal animals.", "format", "text"),
                Map.of("id", "bad-json", "text", "{\"unterminated\": [1, 2", "format", "json"),
                Map.of("id", "good-2", "text", "# Otters\n\nOtters hold hands while sleeping.", "format", "markdown"));
        ServerClient.Response accepted = CLIENT.post(DOCS, writer(), batch);
        assertEquals(202, accepted.status(), accepted.body());
        assertTrue(accepted.location().contains("/api/v1/tenants/" + T + "/jobs/"), accepted.location());

        JsonNode job = FIXTURES.awaitJob(accepted.location(), writer());
        assertEquals("PARTIALLY_FAILED", job.get("status").asText(), job.toString());
        assertEquals(2, job.get("succeeded").asInt());
        assertEquals(1, job.get("failed").asInt());
        assertEquals(100, job.get("percent").asInt());
        JsonNode failure = null;
        for (JsonNode outcome : job.get("outcomes")) {
            if (outcome.get("documentId").asText().equals("bad-json")) {
                failure = outcome;
            }
        }
        assertEquals(422, failure.get("status").asInt(), job.toString());
        assertEquals("https://corpora.dev/problems/unreadable-document", failure.path("type").asText(), failure.toString());
        assertTrue(failure.get("error").asText().contains("bad-json"), failure.toString());
        assertTrue(texts(search("otters sleeping")).stream().anyMatch(t -> t.contains("Otters hold hands")));
    }

    /** {@code wait} holds the answer until the job has finished: one look right after the upload sees it done. */
    @Test
    void aLookThatWaitsIsAnsweredOnceTheJobHasFinished() {
        ServerClient.Response accepted = CLIENT.post(DOCS, writer(), List.of(
                Map.of("id", "wait-1", "text", "Herons stand still for hours while fishing.", "format", "text"),
                Map.of("id", "wait-2", "text", "Kingfishers dive headfirst into the water.", "format", "text")));
        assertEquals(202, accepted.status(), accepted.body());
        ServerClient.Response held = CLIENT.get(accepted.location() + "?wait=20", writer());
        assertEquals(200, held.status(), held.body());
        assertEquals("SUCCEEDED", held.json().get("status").asText(), held.body());
        assertEquals(2, held.json().get("succeeded").asInt(), held.body());

        for (String wait : List.of("31", "-1", "soon")) {
            ServerClient.Response refused = CLIENT.get(accepted.location() + "?wait=" + wait, writer());
            assertEquals(400, refused.status(), wait + ": " + refused.body());
            assertTrue(refused.contentType().startsWith("application/problem+json"), refused.contentType());
            assertTrue(refused.json().get("detail").asText().contains("from 0 to 30"), refused.body());
        }
        ServerClient.Response missing = CLIENT.get(DOCS.replace("/documents", "/jobs/no-such-job") + "?wait=30", writer());
        assertEquals(404, missing.status(), missing.body());
    }

    @Test
    void multipartUploadsRunAsJobs() {
        byte[] markdown = "---\ndepartment: legal\n---\n# Contracts\n\nEvery contract needs two signatures.\n".getBytes(StandardCharsets.UTF_8);
        ServerClient.Response accepted = CLIENT.postMultipart(DOCS, writer(), List.of(
                new ServerClient.Part("file", "contracts.md", "text/markdown", markdown),
                new ServerClient.Part("metadata", null, "application/json", "{\"lang\": \"en\"}".getBytes(StandardCharsets.UTF_8))));
        assertEquals(202, accepted.status(), accepted.body());
        JsonNode job = FIXTURES.awaitJob(accepted.location(), writer());
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
        JsonNode hit = search("contract signatures").get("passages").get(0);
        assertEquals("contracts.md", hit.get("citation").get("documentId").asText());
        assertEquals("legal", hit.get("metadata").get("department").asText());
        assertEquals("en", hit.get("metadata").get("lang").asText());
        assertEquals("Contracts", hit.get("citation").get("headingPath").get(0).asText());
    }

    @Test
    void badInputGetsAClearProblemAndChangesNothing() {
        ServerClient.Response unsupported = CLIENT.postMultipart(DOCS, writer(), List.of(
                new ServerClient.Part("file", "image.png", "image/png", new byte[] {(byte) 0x89, 'P', 'N', 'G'})));
        JsonNode job = FIXTURES.awaitJob(unsupported.location(), writer());
        assertEquals(415, job.get("outcomes").get(0).get("status").asInt(), job.toString());

        ServerClient.Response invalidUtf8 = CLIENT.postMultipart(DOCS, writer(), List.of(
                new ServerClient.Part("file", "latin.txt", "text/plain; charset=utf-8", new byte[] {'c', 'a', 'f', (byte) 0xE9, ' ', 'x'})));
        JsonNode utf8Job = FIXTURES.awaitJob(invalidUtf8.location(), writer());
        assertEquals(422, utf8Job.get("outcomes").get(0).get("status").asInt(), utf8Job.toString());

        ServerClient.Response noText = CLIENT.post(DOCS, writer(), Map.of("id", "x"));
        assertEquals(400, noText.status());
        assertTrue(noText.contentType().startsWith("application/problem+json"));
        JsonNode problem = noText.json();
        assertEquals(400, problem.get("status").asInt());
        assertTrue(problem.get("type").asText().startsWith("https://"), problem.toString());
        assertTrue(problem.has("title") && problem.has("detail"), problem.toString());

        ServerClient.Response badFormat = CLIENT.post(DOCS, writer(), Map.of("id", "x", "text", "x", "format", "docx"));
        assertEquals(400, badFormat.status(), badFormat.body());
        ServerClient.Response traversal = CLIENT.postMultipart(DOCS, writer(), List.of(
                new ServerClient.Part("file", "../../etc/passwd", "text/plain", "root:x:0:0".getBytes(StandardCharsets.UTF_8))));
        assertEquals(400, traversal.status(), traversal.body()); // refused whole: HostileInputIT covers the variants
        assertTrue(traversal.contentType().startsWith("application/problem+json"), traversal.contentType());
        assertEquals(200, CLIENT.get("health/ready", null).status());
    }
}
