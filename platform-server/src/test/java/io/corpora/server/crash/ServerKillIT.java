package io.corpora.server.crash;

import io.corpora.testkit.server.KillableLibertyServer;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.testkit.Poll;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.server.api.TenantFixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Kills the real server JVM (SIGKILL) in the middle of a large replace, restarts it on the same data, and checks what
 * the atomic-replace guarantee promises: the previous version is still the one served, whole (registry, chunks route,
 * keyword and vector retrieval, verify), the interrupted job is closed as failed and says why, and the corpus still
 * takes new versions. Three moments are killed: the instant the job is acknowledged (202), right after the job began
 * version 2, and once its first hundred chunks were stored (that job first stored a small document, which must survive). The tests share one server and data
 * directory and run in order. No Arquillian: its managed container
 * cannot be killed and restarted mid-test.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ServerKillIT {

    private static final String V1_MARKER = "quillfeather";
    private static final String V2_MARKER = "marrowlantern";
    private static final String DOCUMENT = "handbook";
    private static final String MEMO = "memo";
    /** Large enough that embedding version 2 on CPU takes far longer than the test waits before killing. */
    private static final int V2_PARAGRAPHS = 3000;
    /** How long a kill moment may take to arrive: generous, CI machines are shared. */
    private static final Duration KILL_MOMENT_TIMEOUT = Duration.ofMinutes(2);

    private static KillableLibertyServer server;
    private static ServerClient client;
    private static String tenant;
    private static String documents;
    private static JsonNode v1Document;
    private static List<String> v1Chunks;

    @BeforeAll
    static void startServerWithVersionOne() throws Exception {
        Path target = Path.of(System.getProperty("corpora.war", "target/corpora.war")).toAbsolutePath().getParent();
        int port = Integer.getInteger("corpora.crash.http.port", 19283);
        server = KillableLibertyServer.create("corpora-crash", port, target.resolve("crash-data"), target.resolve("crash-logs"),
                List.of(KillableLibertyServer.DEVELOPMENT_MODE));
        Instant started = Instant.now();
        server.start();
        System.out.printf("ServerKillIT: server up in %d ms%n", Duration.between(started, Instant.now()).toMillis());
        client = new ServerClient(server.baseUri(), ServerClient.devPrivateKey());
        tenant = TenantFixtures.uniqueId("crash");
        documents = "api/v1/tenants/" + tenant + "/documents";
        new TenantFixtures(client).create(tenant, List.of(), false);

        ServerClient.Response stored = client.post(documents, writer(), Map.of("id", DOCUMENT, "text", versionOne(), "source", "handbook.txt",
                "metadata", Map.of("edition", "1")));
        assertEquals(201, stored.status(), stored.body());
        v1Document = client.get(documents + "/" + DOCUMENT, reader()).json();
        assertEquals(1, v1Document.get("version").asInt(), v1Document.toString());
        v1Chunks = chunksServed();
        assertTrue(v1Chunks.size() > 1, "version 1 should span several chunks: " + v1Chunks);
    }

    @AfterAll
    static void killServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    @Order(1)
    void killedTheMomentTheReplaceIsAcceptedTheJobSurvivesAndThePreviousVersionStillServes() throws Exception {
        String job = startReplace();
        killAndRestart("right after the 202 that acknowledged the job"); // its row was committed just before: it must survive
        assertJobClosed(job, "FAILED", 0);
        assertOnlyVersionOneServes(false);
    }

    @Test
    @Order(2)
    void killedRightAfterVersionTwoBeganThePreviousVersionStillServes() throws Exception {
        String job = startReplace();
        Poll.until("version 2 begun", KILL_MOMENT_TIMEOUT, () -> documentStatus().equals("INGESTING") && jobStatus(job).equals("RUNNING"));
        killAndRestart("right after version 2 began");
        assertJobClosed(job, "FAILED", 0);
        assertOnlyVersionOneServes(true);
    }

    @Test
    @Order(3)
    void killedWhileTheNewChunksAreBeingWrittenThePreviousVersionStillServes() throws Exception {
        // The batch stores a small new document first: its outcome was recorded before the kill and must survive it.
        String job = startReplace(Map.of("id", MEMO, "text", "A short memo about the cafeteria opening hours.", "source", "memo.txt"));
        // verify counts chunks of a non-active version as stale: here, the version-2 chunks written so far.
        Poll.until("a hundred version-2 chunks stored", KILL_MOMENT_TIMEOUT, () -> staleChunks() >= 100);
        long stored = staleChunks();
        assertEquals("RUNNING", jobStatus(job), "the replace must still be running when the server is killed");
        killAndRestart("with " + stored + " version-2 chunks stored");
        assertJobClosed(job, "PARTIALLY_FAILED", 1);
        JsonNode memo = client.get(documents + "/" + MEMO, reader()).json();
        assertEquals("ACTIVE", memo.get("status").asText(), memo.toString());
        assertOnlyVersionOneServes(true);
    }

    @Test
    @Order(4)
    void theCorpusTakesANewVersionAfterRecovery() {
        // A shorter version 2 than the killed ones: embedding all of those would take minutes on a CI machine.
        ServerClient.Response accepted = client.post(documents, writer(),
                List.of(Map.of("id", DOCUMENT, "text", versionTwo(300), "source", "handbook.txt", "metadata", Map.of("edition", "2"))));
        assertEquals(202, accepted.status(), accepted.body());
        JsonNode job = new TenantFixtures(client).awaitJob(accepted.location(), writer());
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());

        JsonNode document = client.get(documents + "/" + DOCUMENT, reader()).json();
        assertEquals("ACTIVE", document.get("status").asText(), document.toString());
        assertTrue(document.get("version").asInt() > 1, document.toString());
        assertEquals("2", document.get("metadata").get("edition").asText(), document.toString());
        List<String> chunks = chunksServed();
        assertEquals(document.get("chunks").asInt(), chunks.size());
        assertTrue(chunks.stream().noneMatch(c -> c.contains(V1_MARKER)) && chunks.stream().anyMatch(c -> c.contains(V2_MARKER)),
                "only version-2 text");
        assertTrue(passages(V2_MARKER, "keyword").stream().anyMatch(p -> p.contains(V2_MARKER)));
        assertTrue(passages(V1_MARKER, "keyword").isEmpty(), "version 1 is gone");
        assertClean(verify(), chunks.size() + otherChunks());
    }

    /** Submits a job: the given documents, then version 2 (thousands of chunks); returns the job's path. */
    @SafeVarargs
    private static String startReplace(Map<String, Object>... before) {
        List<Map<String, Object>> batch = new ArrayList<>(List.of(before));
        batch.add(Map.of("id", DOCUMENT, "text", versionTwo(V2_PARAGRAPHS), "source", "handbook.txt", "metadata", Map.of("edition", "2")));
        ServerClient.Response accepted = client.post(documents, writer(), batch);
        assertEquals(202, accepted.status(), accepted.body());
        return accepted.location().substring(accepted.location().indexOf("api/v1/"));
    }

    private static void killAndRestart(String moment) throws Exception {
        server.killJvm();
        Instant restarting = Instant.now();
        server.start();
        System.out.printf("ServerKillIT: killed %s; restarted in %d ms; %s%n", moment,
                Duration.between(restarting, Instant.now()).toMillis(), recoveryLogLine());
    }

    /** The job is closed, not RUNNING: what it stored before the kill counts, the interrupted document failed and says why. */
    private static void assertJobClosed(String jobPath, String status, int succeeded) {
        ServerClient.Response response = client.get(jobPath, writer());
        assertEquals(200, response.status(), "a job acknowledged with 202 must survive the kill: " + response.body());
        JsonNode job = response.json();
        assertEquals(status, job.get("status").asText(), job.toString());
        assertEquals(succeeded, job.get("succeeded").asInt(), job.toString());
        assertEquals(1, job.get("failed").asInt(), job.toString());
        assertEquals(100, job.get("percent").asInt(), job.toString());
        JsonNode interrupted = job.get("outcomes").get(succeeded);
        assertEquals("failed", interrupted.get("result").asText(), job.toString());
        String why = interrupted.get("error").asText();
        // Closed by the restarted server, or by whichever server first saw the dead one's lease expire.
        assertTrue(why.contains("server restart") || why.contains("the server running the job stopped"), "the job says why: " + job);
        assertEquals("https://corpora.dev/problems/job-interrupted", interrupted.path("type").asText(), job.toString());
    }

    /** @param versionTwoBegun the registry had begun version 2 before the kill, so it must now record why it failed */
    private static void assertOnlyVersionOneServes(boolean versionTwoBegun) {
        // The registry: version 1 is still the active one, whole, with its own description.
        JsonNode document = client.get(documents + "/" + DOCUMENT, reader()).json();
        assertEquals(v1Document.get("version").asInt(), document.get("version").asInt(), document.toString());
        assertEquals(v1Document.get("chunks").asInt(), document.get("chunks").asInt(), document.toString());
        assertEquals(v1Document.get("bytes").asLong(), document.get("bytes").asLong(), "size of the version served: " + document);
        assertEquals("1", document.get("metadata").get("edition").asText(), "metadata of the version served: " + document);
        if (versionTwoBegun || !document.get("status").asText().equals("ACTIVE")) {
            assertEquals("FAILED", document.get("status").asText(), "FAILED: the last ingest failed, the previous version serves: " + document);
            String error = document.get("error").asText();
            assertTrue(error.contains("restart") || error.contains("the server writing it stopped"), document.toString());
        }

        assertEquals(v1Chunks, chunksServed(), "exactly version 1's chunks");
        List<String> found = passages(V1_MARKER, "keyword"); // only the handbook's version 1 has this word
        assertFalse(found.isEmpty(), "version 1 is searchable");
        assertTrue(found.stream().allMatch(p -> p.contains(V1_MARKER)), found.toString());
        assertTrue(passages(V2_MARKER, "keyword").isEmpty(), "no version-2 chunk is served");
        assertTrue(passages(V2_MARKER, "hybrid").stream().noneMatch(p -> p.contains(V2_MARKER)), "no version-2 chunk by vector either");
        assertClean(verify(), v1Chunks.size() + otherChunks());
    }

    /** verify finds the store and the registry in agreement, and the store holds exactly {@code chunks} chunks. */
    private static void assertClean(JsonNode verify, int chunks) {
        assertTrue(verify.get("consistent").asBoolean(), verify.toString());
        assertEquals(0, verify.get("orphaned").get("count").asLong(), verify.toString());
        assertEquals(0, verify.get("stale").get("count").asLong(), verify.toString());
        assertEquals(0, verify.get("missing").get("count").asLong(), verify.toString());
        assertEquals(chunks, verify.get("chunks").asLong(), "chunks left in the store: " + verify);
    }

    private static String versionOne() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            text.append("Section ").append(i).append(" of the handbook, first edition: the ").append(V1_MARKER)
                    .append(" rule says every team keeps a written record of its decisions, reviews it each quarter, and shares")
                    .append(" the summary with the whole department before the planning meeting starts.\n\n");
        }
        return text.toString();
    }

    /** Version 2: {@code paragraphs} paragraphs of varied words, each carrying the version-2 marker. */
    private static String versionTwo(int paragraphs) {
        String[] words = {"river", "ledger", "copper", "orchard", "signal", "harbor", "meadow", "lantern", "quarry", "thimble",
                "saddle", "beacon", "pillar", "canyon", "walnut", "cobalt", "falcon", "granite", "hollow", "juniper"};
        Random random = new Random(42);
        StringBuilder text = new StringBuilder();
        for (int p = 0; p < paragraphs; p++) {
            int start = text.length();
            text.append("Paragraph ").append(p).append(" of the second edition, the ").append(V2_MARKER).append(" revision:");
            while (text.length() - start < 700) {
                text.append(' ').append(words[random.nextInt(words.length)]);
            }
            text.append(".\n\n");
        }
        return text.toString();
    }

    private static List<String> chunksServed() {
        ServerClient.Response response = client.get(documents + "/" + DOCUMENT + "/chunks", reader());
        assertEquals(200, response.status(), response.body());
        List<String> chunks = new ArrayList<>();
        response.json().get("chunks").forEach(c -> chunks.add(c.get("id").asText() + " " + c.get("text").asText()));
        return chunks;
    }

    private static List<String> passages(String query, String mode) {
        ServerClient.Response response = client.post("api/v1/tenants/" + tenant + "/retrieve", reader(),
                Map.of("query", query, "mode", mode, "topK", 10));
        assertEquals(200, response.status(), response.body());
        List<String> texts = new ArrayList<>();
        response.json().get("passages").forEach(p -> texts.add(p.get("text").asText()));
        return texts;
    }

    /** Chunks of the documents other than the replaced one (the memo, once stored). */
    private static int otherChunks() {
        ServerClient.Response memo = client.get(documents + "/" + MEMO, reader());
        return memo.status() == 404 ? 0 : memo.json().get("chunks").asInt();
    }

    private static JsonNode verify() {
        ServerClient.Response response = client.get("api/v1/tenants/" + tenant + "/index:verify", writer());
        assertEquals(200, response.status(), response.body());
        return response.json();
    }

    private static long staleChunks() {
        return verify().get("stale").get("count").asLong();
    }

    private static String documentStatus() {
        return client.get(documents + "/" + DOCUMENT, reader()).json().get("status").asText();
    }

    private static String jobStatus(String job) {
        return client.get(job, writer()).json().get("status").asText();
    }

    private static String recoveryLogLine() throws java.io.IOException {
        try (var lines = Files.lines(server.messagesLog())) {
            return lines.filter(l -> l.contains("ingest recovery")).reduce((a, b) -> b).orElse("(no recovery line in messages.log)");
        }
    }

    private static String writer() {
        return client.token("writer", tenant, Roles.WRITER);
    }

    private static String reader() {
        return client.token("reader", tenant, Roles.READER);
    }
}
