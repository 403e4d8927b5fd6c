package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The audience ACL and the partition binding on every data-plane route, not only retrieve (issue 12): a reader without
 * the {@code legal} group cannot read a {@code group:legal} document's chunks, metadata, listing entry, job outcome or
 * count; a writer who cannot see it can neither delete nor replace it; a partition-bound token sees its partition's
 * jobs and counts only; and document ids of any shape work on every document route.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DocumentAccessIT extends DeployedServer {

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String T = TenantFixtures.uniqueId("acl");
    private static final String BASE = "api/v1/tenants/" + T;
    private static final String SECRET = "Initech";
    /** Ids that are hard to pass in a path: a slash (URL ingest, folder upload), spaces, '%', non-ASCII, dot segments, '#', '?'. */
    static final List<String> ODD_IDS = List.of("guides/a.md", "example.com/docs/install", "with space & 100%.md", "ünïcødé/文档.txt",
            "a/../b", "x/chunks", "..", ".", "q?x=1#frag", "back\\slash");

    private static String batchJob;
    private static String p1Job;

    private static String reader(List<String> groups) {
        return CLIENT.token("rita", T, List.of(Roles.READER), Map.of("acl_groups", groups));
    }

    private static String writer(List<String> groups) {
        return CLIENT.token("walt", T, List.of(Roles.WRITER), Map.of("acl_groups", groups));
    }

    private static String boundReader(String partition) {
        return CLIENT.token("paula", T, List.of(Roles.READER), Map.of("acl_groups", List.of(), "partition", partition));
    }

    @BeforeAll
    static void aTenantWithALegalMemo() {
        FIXTURES.create(T, List.of("p1"), true);
        String writer = writer(List.of("legal"));
        store(writer, "legal-memo", "Merger memo: the board approves the acquisition of " + SECRET + ".", "group:legal", null);
        store(writer, "public-note", "Cafeteria note: the board approves new coffee machines.", "public", null);
        for (String id : ODD_IDS) {
            store(writer, id, "Guide " + id + " on laptop onboarding.", "public", null);
        }
        batchJob = batch(writer, null, Map.of("batch-legal", "group:legal", "batch-public", "public"));
        Map<String, String> pages = new LinkedHashMap<>();
        for (int i = 0; i < 10; i++) {
            pages.put("page-" + i, i % 2 == 0 ? "group:legal" : "public");
        }
        pages.put("p1-doc", "public");
        p1Job = batch(writer, "p1", pages);
    }

    @Test
    @Order(1)
    void aReaderWithoutTheLegalGroupCannotSeeTheLegalDocumentOnAnyRoute() {
        String reader = reader(List.of());
        ServerClient.Response document = CLIENT.get(BASE + "/documents/legal-memo", reader);
        ServerClient.Response missing = CLIENT.get(BASE + "/documents/never-stored", reader);
        assertEquals(404, document.status(), "a hidden document is 404 like a missing one: " + document.body());
        assertEquals(missing.json().get("type").asText(), document.json().get("type").asText());
        ServerClient.Response chunks = CLIENT.get(BASE + "/documents/legal-memo/chunks", reader);
        assertEquals(404, chunks.status(), chunks.body());
        assertFalse(chunks.body().contains(SECRET), chunks.body());

        JsonNode listed = CLIENT.get(BASE + "/documents?limit=500", reader).json();
        List<String> ids = new ArrayList<>();
        listed.get("documents").forEach(d -> ids.add(d.get("id").asText()));
        assertFalse(ids.contains("legal-memo") || ids.contains("batch-legal"), ids.toString());
        assertTrue(ids.contains("public-note") && ids.contains("batch-public"), ids.toString());

        JsonNode job = CLIENT.get(BASE + "/jobs/" + batchJob, reader).json();
        assertEquals(List.of("batch-public"), outcomeIds(job), job.toString());
        assertEquals(1, job.get("total").asInt(), "counts count what is shown: " + job);
        assertEquals(1, job.get("succeeded").asInt(), job.toString());
        assertEquals(100, job.get("percent").asInt(), job.toString());
        JsonNode jobs = CLIENT.get(BASE + "/jobs", reader).json();
        assertFalse(jobs.toString().contains("batch-legal") || jobs.toString().contains("page-0"), jobs.toString());

        JsonNode stats = CLIENT.get(BASE + "/stats", reader).json();
        int visibleDefault = 1 + ODD_IDS.size() + 1; // public-note, the odd ids, batch-public
        assertEquals(visibleDefault + 6, stats.get("documents").asInt(), stats.toString()); // p1: 5 odd pages + p1-doc
        assertEquals(visibleDefault, stats.get("documentsByPartition").get("_default").asInt(), stats.toString());
        assertEquals(6, stats.get("documentsByPartition").get("p1").asInt(), stats.toString());

        ServerClient.Response retrieved = CLIENT.post(BASE + "/retrieve", reader, Map.of("query", "merger acquisition " + SECRET,
                "mode", "keyword", "expandNeighbors", 2));
        assertEquals(200, retrieved.status(), retrieved.body());
        assertFalse(retrieved.body().contains(SECRET), retrieved.body());

        String legalReader = reader(List.of("legal"));
        assertEquals(200, CLIENT.get(BASE + "/documents/legal-memo", legalReader).status(), "acl_groups [legal] sees the legal memo");
        assertTrue(CLIENT.get(BASE + "/documents/legal-memo/chunks", legalReader).body().contains(SECRET));
        assertEquals(List.of("batch-legal", "batch-public"), outcomeIds(CLIENT.get(BASE + "/jobs/" + batchJob, legalReader).json()));
        assertEquals(visibleDefault + 2 + 11, CLIENT.get(BASE + "/stats", legalReader).json().get("documents").asInt());
    }

    @Test
    @Order(2)
    void listingSkipsHiddenDocumentsAndStillFillsEveryPage() {
        String reader = reader(List.of());
        List<String> expected = List.of("p1-doc", "page-1", "page-3", "page-5", "page-7", "page-9");
        for (int limit = 1; limit <= 4; limit++) {
            List<String> seen = new ArrayList<>();
            String after = null;
            for (int pages = 0; pages < 10; pages++) {
                JsonNode page = CLIENT.get(BASE + "/documents?partition=p1&limit=" + limit + (after == null ? "" : "&after=" + encode(after)),
                        reader).json();
                page.get("documents").forEach(d -> seen.add(d.get("id").asText()));
                after = page.get("next").isNull() ? null : page.get("next").asText();
                if (after == null) {
                    break;
                }
                assertEquals(limit, page.get("documents").size(), "a page with a next cursor is full: " + page);
            }
            assertEquals(expected, seen, "limit " + limit);
        }
    }

    @Test
    @Order(3)
    void aWriterWhoCannotSeeADocumentCanNeitherDeleteNorReplaceIt() {
        String writer = writer(List.of());
        ServerClient.Response deleted = CLIENT.delete(BASE + "/documents/legal-memo", writer);
        assertEquals(404, deleted.status(), "deleting a hidden document answers like a missing one: " + deleted.body());
        assertEquals(404, CLIENT.delete(BASE + "/document?id=legal-memo", writer).status());
        ServerClient.Response replaced = CLIENT.post(BASE + "/documents", writer, Map.of("id", "legal-memo", "text", "overwritten",
                "metadata", Map.of("audience", "public")));
        assertEquals(403, replaced.status(), replaced.body());
        assertTrue(replaced.json().get("detail").asText().contains("may not see it"), replaced.body());
        assertFalse(replaced.body().contains(SECRET), replaced.body());
        assertTrue(CLIENT.get(BASE + "/documents/legal-memo/chunks", reader(List.of("legal"))).body().contains(SECRET),
                "the hidden document is unchanged");
        assertEquals(204, CLIENT.delete(BASE + "/documents/batch-legal", writer(List.of("legal"))).status(),
                "a writer who sees it may delete it");
    }

    @Test
    @Order(4)
    void aPartitionBoundTokenSeesOnlyItsPartitionsJobsAndCounts() {
        String bound = boundReader("p1");
        JsonNode jobs = CLIENT.get(BASE + "/jobs", bound).json().get("jobs");
        assertFalse(jobs.isEmpty());
        jobs.forEach(job -> assertEquals("p1", job.get("partition").asText(), job.toString()));
        assertEquals(404, CLIENT.get(BASE + "/jobs/" + batchJob, bound).status(), "a job of another partition is not found");
        assertEquals(200, CLIENT.get(BASE + "/jobs/" + p1Job, bound).status());
        JsonNode stats = CLIENT.get(BASE + "/stats", bound).json();
        assertEquals(List.of("p1"), fieldNames(stats.get("documentsByPartition")), stats.toString());
        assertEquals(6, stats.get("documents").asInt(), stats.toString());
        assertEquals(403, CLIENT.get(BASE + "/documents?partition=_default", bound).status());
    }

    @Test
    @Order(5)
    void documentIdsOfAnyShapeWorkOnEveryDocumentRoute() throws IOException {
        String reader = reader(List.of());
        for (String id : ODD_IDS) {
            ServerClient.Response document = CLIENT.get(BASE + "/document?id=" + encode(id), reader);
            assertEquals(200, document.status(), id + ": " + document.body());
            assertEquals(id, document.json().get("id").asText());
            JsonNode chunks = CLIENT.get(BASE + "/document/chunks?id=" + encode(id), reader).json();
            assertEquals(id, chunks.get("documentId").asText());
            assertTrue(chunks.get("chunks").get(0).get("text").asText().contains("Guide " + id), chunks.toString());
        }
        // One path segment works for ids without '/', '\', '#' or dot segments.
        ServerClient.Response segment = CLIENT.get(BASE + "/documents/" + encode("with space & 100%.md"), reader);
        assertEquals(200, segment.status(), segment.body());
        assertEquals(200, CLIENT.get(BASE + "/documents/" + encode("with space & 100%.md") + "/chunks", reader).status());
        // documents/x/chunks always means the chunks of "x"; the document "x/chunks" is reached by its query form.
        assertEquals("document-not-found", problemType(CLIENT.get(BASE + "/documents/x/chunks", reader)));
        ServerClient.Response slashInPath = CLIENT.get(BASE + "/documents/guides/a.md", reader);
        assertEquals(400, slashInPath.status(), slashInPath.body());
        assertEquals("invalid-document-path", problemType(slashInPath));
        assertTrue(slashInPath.json().get("detail").asText().contains("document?id=guides%2Fa.md"), slashInPath.body());
        // An encoded '/' or dot segment is refused by the container itself (Servlet 6) before any route: still problem+json.
        for (String refused : List.of("/documents/guides%2Fa.md", "/documents/%2e%2e", "/documents/%2e%2e/chunks")) {
            ServerClient.Response answer = CLIENT.get(BASE + refused, reader);
            assertEquals(400, answer.status(), refused + ": " + answer.body());
            assertEquals("invalid-request-uri", problemType(answer), refused + ": " + answer.body());
        }
        // The caller's mistake, not the server's: no SEVERE record of it (Liberty logs one with a stack trace per request).
        List<String> refusalRecords = MessagesLog.jsonRecords().map(record -> record.path("message").asText())
                .filter(message -> message.contains("CWWWC0005I")).toList();
        assertEquals(List.of(), refusalRecords);
        assertEquals(400, CLIENT.get(BASE + "/document", reader).status(), "the id is required");

        String writer = writer(List.of());
        for (String id : ODD_IDS) {
            assertEquals(204, CLIENT.delete(BASE + "/document?id=" + encode(id), writer).status(), id);
            assertEquals(404, CLIENT.get(BASE + "/document?id=" + encode(id), reader).status(), id);
        }
        assertEquals(204, CLIENT.delete(BASE + "/documents/public-note", writer).status());
    }

    private static void store(String writer, String id, String text, String audience, String partition) {
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("id", id);
        document.put("text", text);
        document.put("metadata", Map.of("audience", List.of(audience)));
        if (partition != null) {
            document.put("partition", partition);
        }
        ServerClient.Response stored = CLIENT.post(BASE + "/documents", writer, document);
        assertEquals(201, stored.status(), id + ": " + stored.body());
    }

    /** Ingests documents (id → audience) as one batch job and waits for it; returns the job id. */
    private static String batch(String writer, String partition, Map<String, String> audiences) {
        List<Map<String, Object>> batch = new ArrayList<>();
        audiences.forEach((id, audience) -> {
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("id", id);
            document.put("text", "Batch document " + id + " about the quarterly board meeting.");
            document.put("metadata", Map.of("audience", List.of(audience)));
            if (partition != null) {
                document.put("partition", partition);
            }
            batch.add(document);
        });
        ServerClient.Response accepted = CLIENT.post(BASE + "/documents", writer, batch);
        assertEquals(202, accepted.status(), accepted.body());
        JsonNode job = FIXTURES.awaitJob(accepted.location(), writer);
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
        assertEquals(partition == null ? "_default" : partition, job.get("partition").asText(), job.toString());
        return job.get("id").asText();
    }

    private static List<String> outcomeIds(JsonNode job) {
        TreeSet<String> ids = new TreeSet<>();
        job.get("outcomes").forEach(o -> ids.add(o.get("documentId").asText()));
        return new ArrayList<>(ids);
    }

    private static List<String> fieldNames(JsonNode node) {
        List<String> names = new ArrayList<>();
        node.fieldNames().forEachRemaining(names::add);
        return names;
    }

    private static String problemType(ServerClient.Response response) {
        String type = response.json().get("type").asText();
        return type.substring(type.lastIndexOf('/') + 1);
    }

    static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }
}
