package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.testkit.Poll;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/**
 * Misbehaving plugins, for real: the probe-current reranker hanging (delay 30 s) or throwing, and a pgvector store whose
 * table disappears. The hung reranker times out (3 s default) and degrades, its tenant's breaker opens and answers at
 * once, and another tenant served meanwhile keeps its latency; a failing store is a 503 with Retry-After.
 */
class FaultToleranceIT extends DeployedServer {

    /** The reranker's default timeout (corpora.ft.reranker.timeout) and what the test allows on top on a busy machine. */
    private static final long RERANKER_TIMEOUT_MILLIS = 3000;
    private static final long MARGIN_MILLIS = 3000;
    private static final int HAMMER_THREADS = 4;

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @Test
    void aHungRerankerTimesOutOpensItsBreakerAndLeavesOtherTenantsUnaffected() throws Exception {
        String healthy = TenantFixtures.uniqueId("ft-healthy");
        String control = TenantFixtures.uniqueId("ft-control");
        String slow = TenantFixtures.uniqueId("ft-slow");
        create(healthy, Map.of("provider", "lucene"), null);
        create(control, Map.of("provider", "lucene"), null);
        create(slow, Map.of("provider", "lucene"), Map.of("provider", "probe-current", "config", Map.of("delay", "30s")));
        ingest(healthy);
        ingest(control);
        ingest(slow);
        String healthyReader = client.token("r", healthy, Roles.READER);
        Map<String, Object> healthyQuery = Map.of("query", "when are lanterns lit", "mode", "hybrid");
        // The control tenant gets the same traffic as the slow one, minus the hung reranker: its open-breaker answers
        // cost what the control's keyword answers cost, so the two phases differ by the fault alone, not by load.
        Map<String, Object> keywordQuery = Map.of("query", "when are lanterns lit", "mode", "keyword");
        Map<String, Object> rerankedQuery = Map.of("query", "when are lanterns lit", "mode", "keyword", "rerank", true);

        for (int i = 0; i < 5; i++) {
            retrieve(healthy, healthyReader, healthyQuery); // warm-up: JIT, model, index readers
        }
        List<Long> quiet = new ArrayList<>();
        while (quiet.size() < 20) {
            quiet.add(retrieve(healthy, healthyReader, healthyQuery).micros);
            pause(100);
        }
        Hammer calm = Hammer.start(() -> retrieve(control, client.token("r", control, Roles.READER), keywordQuery));
        List<Long> baseline = new ArrayList<>();
        while (baseline.size() < 20) {
            baseline.add(retrieve(healthy, healthyReader, healthyQuery).micros);
            pause(100);
        }
        calm.stop();

        Hammer faulty = Hammer.start(() -> retrieve(slow, client.token("r", slow, Roles.READER), rerankedQuery));
        List<Long> underFault = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (System.nanoTime() < deadline && (underFault.size() < 20 || circuitOpenAnswers(faulty.answers()) < 5)) {
            underFault.add(retrieve(healthy, healthyReader, healthyQuery).micros);
            pause(100);
        }
        List<Timed> answers = faulty.stop();

        long baselineMedian = median(baseline);
        long underFaultMedian = median(underFault);
        long slowest = answers.stream().mapToLong(a -> a.micros / 1000).max().orElseThrow();
        List<Long> openLatencies = answers.stream().filter(a -> a.reason().contains("circuit open")).map(a -> a.micros / 1000).sorted().toList();
        long quietMedian = median(quiet);
        System.out.printf(Locale.ROOT, "FaultToleranceIT: healthy tenant's median alone %.1f ms, beside equal traffic without the fault %.1f ms,"
                        + " beside the fault %.1f ms (n=%d/%d/%d): %.2f× the equal-traffic baseline, %.2f× alone; slow tenant: %d answers,"
                        + " slowest %d ms, %d circuit-open answers with median %d ms%n",
                quietMedian / 1000.0, baselineMedian / 1000.0, underFaultMedian / 1000.0, quiet.size(), baseline.size(), underFault.size(),
                (double) underFaultMedian / Math.max(1, baselineMedian), (double) underFaultMedian / Math.max(1, quietMedian),
                answers.size(), slowest, openLatencies.size(), openLatencies.isEmpty() ? -1 : openLatencies.get(openLatencies.size() / 2));

        for (Timed answer : answers) {
            assertEquals(200, answer.status, answer.body);
            assertTrue(answer.json.at("/diagnostics/degraded").asBoolean(), answer.body);
            assertFalse(answer.json.get("passages").isEmpty(), "the answer survives in base order: " + answer.body);
        }
        assertTrue(slowest <= RERANKER_TIMEOUT_MILLIS + MARGIN_MILLIS, "a hung reranker is abandoned at its timeout; slowest " + slowest + " ms");
        assertTrue(answers.stream().anyMatch(a -> a.reason().contains("timed out")), "the first calls time out");
        assertTrue(openLatencies.size() >= 5, "the breaker opened: " + openLatencies.size() + " circuit-open answers");
        assertTrue(openLatencies.get(openLatencies.size() / 2) < 1000,
                "with the breaker open the answer is immediate, not another timeout: " + openLatencies);
        assertTrue(underFaultMedian <= 1.5 * baselineMedian, "the healthy tenant keeps its latency: beside equal traffic "
                + baselineMedian + " µs, beside the fault " + underFaultMedian + " µs");
        // Starvation by a hung plugin would cost the healthy tenant whole timeouts (seconds), not CPU-sharing milliseconds.
        assertTrue(underFaultMedian <= 3 * quietMedian, "the healthy tenant is not starved: alone " + quietMedian
                + " µs, beside the fault " + underFaultMedian + " µs");
    }

    @Test
    void aThrowingRerankerDegradesWithItsReason() {
        String failing = TenantFixtures.uniqueId("ft-fail");
        create(failing, Map.of("provider", "lucene"), Map.of("provider", "probe-current", "config", Map.of("fail", "true")));
        ingest(failing);
        Timed answer = retrieve(failing, client.token("r", failing, Roles.READER), Map.of("query", "lanterns", "mode", "keyword", "rerank", true));
        assertEquals(200, answer.status, answer.body);
        assertTrue(answer.json.at("/diagnostics/degraded").asBoolean(), answer.body);
        assertTrue(answer.reason().contains("configured to fail"), answer.reason());
        assertFalse(answer.json.get("passages").isEmpty(), answer.body);
    }

    /** A reranker the server cannot start (its model file is not there) degrades the reranked retrievals alone. */
    @Test
    void aRerankerThatCannotStartDegradesAndTheTenantServes() {
        String missingModel = TenantFixtures.uniqueId("ft-nomodel");
        create(missingModel, Map.of("provider", "lucene"), Map.of("provider", "onnx-cross-encoder",
                "config", Map.of("modelPath", "/nonexistent/corpora-test/cross-encoder.onnx")));
        ingest(missingModel);
        String token = client.token("r", missingModel, Roles.READER);

        Timed reranked = retrieve(missingModel, token, Map.of("query", "lanterns", "mode", "keyword", "rerank", true));
        assertEquals(200, reranked.status, reranked.body);
        assertTrue(reranked.json.at("/diagnostics/degraded").asBoolean(), reranked.body);
        assertTrue(reranked.reason().contains("the reranker plugin 'onnx-cross-encoder' of tenant '" + missingModel + "' could not be started"),
                reranked.reason());
        assertFalse(reranked.body.contains("/nonexistent"), "the plugin's own words stay in the log: " + reranked.body);

        Timed plain = retrieve(missingModel, token, Map.of("query", "lanterns", "mode", "keyword"));
        assertEquals(200, plain.status, plain.body);
        assertFalse(plain.json.at("/diagnostics/degraded").asBoolean(), plain.body);
        assertEquals(2, documentIds(plain).size(), plain.body);
        assertEquals(documentIds(plain), documentIds(reranked), "the degraded answer is the base order");
    }

    @Test
    void aFailingStoreIs503WithRetryAfterAndShowsInReadiness() throws Exception {
        String pgUrl = System.getenv("CORPORA_TEST_PG_URL");
        assumeTrue(pgUrl != null && !pgUrl.isBlank(), "CORPORA_TEST_PG_URL is not set: no PostgreSQL to break a store with");
        String tenant = TenantFixtures.uniqueId("ft-pg");
        String table = "ft_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);
        create(tenant, Map.of("provider", "pgvector", "config", Map.of("jdbcUrl", pgUrl, "table", table, "ensureSchema", "true")), null);
        ingest(tenant);
        String reader = client.token("r", tenant, Roles.READER);
        Map<String, Object> query = Map.of("query", "lanterns", "mode", "vector");
        assertEquals(200, retrieve(tenant, reader, query).status);

        try (Connection db = DriverManager.getConnection(pgUrl)) {
            execute(db, "ALTER TABLE " + table + " RENAME TO " + table + "_away");
            try {
                String requestId = "ft-" + UUID.randomUUID();
                ServerClient.Response failed = client.post("api/v1/tenants/" + tenant + "/retrieve", reader, query,
                        Map.of("X-Request-Id", requestId));
                assertEquals(503, failed.status(), failed.body());
                assertEquals("application/problem+json", failed.header("Content-Type"));
                JsonNode problem = failed.json();
                assertEquals("https://corpora.dev/problems/plugin-unavailable", problem.get("type").asText());
                assertEquals("store", problem.get("plugin").asText());
                assertEquals(requestId, problem.get("requestId").asText(), "the problem names the request");
                assertEquals(requestId, failed.header("X-Request-Id"));
                assertNotNull(failed.header("Retry-After"), "503 says when to come back");
                assertTrue(Long.parseLong(failed.header("Retry-After")) >= 1);
                assertTrue(MessagesLog.jsonRecords().anyMatch(r -> requestId.equals(r.path("ext_requestId").asText())
                        && r.path("message").asText().contains(tenant)), "the JSON log record of the failure carries the request id");

                ServerClient.Response ready = client.get("health/ready", null);
                assertEquals(503, ready.status(), ready.body());
                assertTrue(ready.body().contains("pgvector/") && ready.body().contains("DOWN: "), ready.body());
                // Readiness answers anyone: the store's own words (the tenant's table, the database's address) go to the log only.
                assertFalse(ready.body().contains(table), ready.body());
                assertFalse(ready.body().contains("127.0.0.1") || ready.body().contains("localhost"), ready.body());
                assertTrue(MessagesLog.jsonRecords().anyMatch(r -> "WARNING".equals(r.path("loglevel").asText())
                        && r.path("message").asText().startsWith("readiness: store:pgvector/") && r.path("message").asText().contains(table)),
                        "the store's failure, in its own words, is in the log");

                ServerClient.Response ingest = client.post("api/v1/tenants/" + tenant + "/documents",
                        client.token("w", tenant, Roles.WRITER), Map.of("id", "doc-new", "text", "Nets are mended at noon."));
                assertEquals(503, ingest.status(), ingest.body());
                assertNotNull(ingest.header("Retry-After"), "an ingest refused for an unavailable store says when to retry");

                ServerClient.Response open = null;
                for (int i = 0; i < 5 && (open == null || !open.body().contains("circuit_open")); i++) {
                    open = client.post("api/v1/tenants/" + tenant + "/retrieve", reader, query);
                }
                assertTrue(open.body().contains("\"reason\":\"circuit_open\""), "repeated failures open the store's breaker: " + open.body());
                long retryAfter = Long.parseLong(open.header("Retry-After"));
                assertTrue(retryAfter >= 1 && retryAfter <= 5, "Retry-After is the time until the breaker half-opens: " + retryAfter);
            } finally {
                execute(db, "ALTER TABLE " + table + "_away RENAME TO " + table);
            }
            // The breaker lets a trial through after its delay (5 s); until then the store stays unavailable.
            Poll.until("the store is back: the breaker closes after a successful trial", Duration.ofSeconds(20), () -> {
                Timed answer = retrieve(tenant, reader, query);
                if (answer.status != 200) {
                    assertEquals(503, answer.status, answer.body);
                }
                return answer.status == 200;
            });
            assertEquals(200, client.get("health/ready", null).status());
            int deleted = client.delete("admin/v1/tenants/" + tenant, admin).status();
            assertTrue(deleted >= 200 && deleted < 300, "tenant deleted: " + deleted);
            execute(db, "DROP TABLE IF EXISTS " + table);
        }
    }

    private void create(String id, Map<String, Object> store, Map<String, Object> reranker) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("id", id);
        definition.put("store", store);
        definition.put("embedder", Map.of("provider", "onnx"));
        if (reranker != null) {
            definition.put("reranker", reranker);
        }
        definition.put("retrieval", Map.of("mode", "hybrid", "topK", 5));
        definition.put("access", Map.of("partitions", List.of()));
        ServerClient.Response created = client.post("admin/v1/tenants", admin, definition);
        assertTrue(created.status() == 201 || created.status() == 200, "create " + id + ": " + created.status() + " " + created.body());
    }

    private void ingest(String tenant) {
        String writer = client.token("w", tenant, Roles.WRITER);
        List<String> texts = List.of("Lanterns are lit at dusk by the night watch.", "The harbour closes when the lanterns are lit.",
                "Bread is baked before dawn in the lower town.");
        for (int i = 0; i < texts.size(); i++) {
            ServerClient.Response stored = client.post("api/v1/tenants/" + tenant + "/documents", writer, Map.of("id", "doc-" + i, "text", texts.get(i)));
            assertEquals(201, stored.status(), stored.body());
        }
    }

    private Timed retrieve(String tenant, String token, Map<String, Object> body) {
        long start = System.nanoTime();
        ServerClient.Response response = client.post("api/v1/tenants/" + tenant + "/retrieve", token, body);
        return new Timed(TimeUnit.NANOSECONDS.toMicros(System.nanoTime() - start), response.status(), response.body(),
                response.status() == 200 ? response.json() : null);
    }

    private static List<String> documentIds(Timed answer) {
        List<String> ids = new ArrayList<>();
        answer.json.get("passages").forEach(p -> ids.add(p.at("/citation/documentId").asText()));
        return ids;
    }

    private static long circuitOpenAnswers(List<Timed> answers) {
        synchronized (answers) {
            return answers.stream().filter(a -> a.reason().contains("circuit open")).count();
        }
    }

    private static long median(List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }

    private static void execute(Connection db, String sql) throws SQLException {
        try (Statement statement = db.createStatement()) {
            statement.execute(sql);
        }
    }

    private static void pause(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** {@value #HAMMER_THREADS} clients sending one request after another, 50 ms apart, until stopped. */
    private static final class Hammer {
        private final AtomicBoolean stop = new AtomicBoolean();
        private final List<Timed> answers = Collections.synchronizedList(new ArrayList<>());
        private final ExecutorService threads = Executors.newFixedThreadPool(HAMMER_THREADS);
        private final List<Future<?>> loops = new ArrayList<>();

        static Hammer start(java.util.function.Supplier<Timed> request) {
            Hammer hammer = new Hammer();
            for (int t = 0; t < HAMMER_THREADS; t++) {
                hammer.loops.add(hammer.threads.submit(() -> {
                    while (!hammer.stop.get()) {
                        hammer.answers.add(request.get());
                        pause(50); // open-breaker answers are instant: keep the test about isolation, not a CPU benchmark
                    }
                    return null;
                }));
            }
            return hammer;
        }

        List<Timed> answers() {
            return answers;
        }

        List<Timed> stop() throws Exception {
            stop.set(true);
            for (Future<?> loop : loops) {
                loop.get(60, TimeUnit.SECONDS);
            }
            threads.shutdown();
            synchronized (answers) {
                return List.copyOf(answers);
            }
        }
    }

    private record Timed(long micros, int status, String body, JsonNode json) {
        String reason() {
            return json == null ? "" : json.at("/diagnostics/degradedReason").asText("");
        }
    }
}
