package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Input the caller controls is the caller's error, never a plugin failure: every hostile request below is answered with
 * a 4xx problem naming the bound, more often than a breaker's window holds (10), on a Lucene tenant and — when
 * {@code CORPORA_TEST_PG_URL} is set — a pgvector tenant (where a NUL or a huge statement would reach PostgreSQL);
 * afterwards each tenant still retrieves and ingests, and its plugin-call metrics hold no failure, timeout or open
 * breaker.
 */
class CallerErrorsIT extends DeployedServer {

    /** More than the breakers' requestVolumeThreshold (10): enough to open one if these counted as failures. */
    private static final int REPEATS = 12;

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String ADMIN = CLIENT.token("ops", null, Roles.PLATFORM_ADMIN);
    private static final String LUCENE = TenantFixtures.uniqueId("caller-lucene");
    private static final String PGVECTOR = TenantFixtures.uniqueId("caller-pg");
    private static final String PG_URL = System.getenv("CORPORA_TEST_PG_URL");
    private static final String PG_TABLE = "caller_" + UUID.randomUUID().toString().replace("-", "").substring(0, 12);

    @BeforeAll
    static void tenantsWithADocument() {
        FIXTURES.create(LUCENE, List.of(), false);
        if (hasPostgres()) {
            Map<String, Object> definition = TenantFixtures.embeddedDefaults(PGVECTOR);
            definition.put("store", Map.of("provider", "pgvector", "config", Map.of("jdbcUrl", PG_URL, "table", PG_TABLE, "ensureSchema", "true")));
            FIXTURES.create(definition);
        }
        for (String tenant : tenants()) {
            ServerClient.Response stored = CLIENT.post(documents(tenant), writer(tenant),
                    Map.of("id", "watch", "text", "Lanterns are lit at dusk by the night watch.", "metadata", Map.of("team", "harbour")));
            assertEquals(201, stored.status(), stored.body());
        }
    }

    @AfterAll
    static void dropTheTable() throws Exception {
        if (hasPostgres()) {
            CLIENT.delete("admin/v1/tenants/" + PGVECTOR, ADMIN);
            try (Connection db = DriverManager.getConnection(PG_URL); Statement statement = db.createStatement()) {
                statement.execute("DROP TABLE IF EXISTS " + PG_TABLE);
            }
        }
    }

    private static boolean hasPostgres() {
        return PG_URL != null && !PG_URL.isBlank();
    }

    private static List<String> tenants() {
        return hasPostgres() ? List.of(LUCENE, PGVECTOR) : List.of(LUCENE);
    }

    private static String documents(String tenant) {
        return "api/v1/tenants/" + tenant + "/documents";
    }

    private static String writer(String tenant) {
        return CLIENT.token("writer", tenant, Roles.WRITER);
    }

    private static String reader(String tenant) {
        return CLIENT.token("reader", tenant, Roles.READER);
    }

    /** A request the caller got wrong, the route it goes to, and the answer it must get every time. */
    private record Hostile(String name, String route, String body, int status, String type) {}

    /** Distinct two-character words (aa, ab, …), {@code count} of them joined by {@code separator}. */
    private static String words(int count, String separator) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        return IntStream.range(0, count).mapToObj(i -> "" + alphabet.charAt(i / alphabet.length()) + alphabet.charAt(i % alphabet.length()))
                .collect(Collectors.joining(separator));
    }

    private static String json(Object value) {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().writeValueAsString(value);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<Hostile> hostileInputs() {
        List<Hostile> hostile = new ArrayList<>();
        String retrieve = "retrieve";
        hostile.add(new Hostile("1,200 keyword terms (Lucene: TooManyClauses)", retrieve,
                json(Map.of("query", words(1200, " "), "mode", "keyword")), 400, "invalid-request"));
        hostile.add(new Hostile("1,200 terms without a space", retrieve, json(Map.of("query", words(1200, ","), "mode", "keyword")), 400, "invalid-request"));
        hostile.add(new Hostile("1,200 ideographs", retrieve, json(Map.of("query", "漢".repeat(1200), "mode", "keyword")), 400, "invalid-request"));
        hostile.add(new Hostile("a NUL in the query", retrieve, json(Map.of("query", "lan\u0000terns", "mode", "keyword")), 400, "invalid-request"));
        hostile.add(new Hostile("a NUL in a filter value", retrieve,
                json(Map.of("query", "lanterns", "mode", "keyword", "filter", Map.of("team", "har\u0000bour"))), 400, "invalid-request"));
        hostile.add(new Hostile("2,000 $in values", retrieve, json(Map.of("query", "lanterns", "mode", "keyword",
                "filter", Map.of("team", Map.of("$in", IntStream.range(0, 2000).boxed().toList())))), 400, "invalid-request"));
        Map<String, Object> manyConditions = new LinkedHashMap<>();
        IntStream.range(0, 100).forEach(i -> manyConditions.put("k" + i, i));
        hostile.add(new Hostile("100 filter conditions", retrieve, json(Map.of("query", "lanterns", "filter", manyConditions)), 400, "invalid-request"));
        hostile.add(new Hostile("a filter 12 levels deep", retrieve, "{\"query\":\"lanterns\",\"filter\":" + "{\"$not\":".repeat(12)
                + "{\"team\":\"harbour\"}" + "}".repeat(12) + "}", 400, "invalid-request"));
        hostile.add(new Hostile("a body nested 900 deep (the JSON reader's stack)", retrieve, "{\"query\":\"lanterns\",\"filter\":"
                + "{\"$not\":".repeat(900) + "{\"team\":\"harbour\"}" + "}".repeat(900) + "}", 400, "json-too-deep"));
        hostile.add(new Hostile("malformed JSON", retrieve, "{\"query\":", 400, "invalid-json"));
        hostile.add(new Hostile("a string for topK", retrieve, "{\"query\":\"lanterns\",\"topK\":\"ten\"}", 400, "invalid-json"));
        hostile.add(new Hostile("a 200 KB retrieve body", retrieve, json(Map.of("query", "lanterns", "note", "n".repeat(200_000))), 413,
                "request-too-large"));
        hostile.add(new Hostile("a 2 MB batch body", retrieve + ":batch", json(Map.of("queries", List.of(Map.of("query", "lanterns")),
                "note", "n".repeat(2_000_000))), 413, "request-too-large"));
        // A query over the model's window is no caller error any more: it is embedded in pooled windows (QueryWindows).

        String ingest = "documents";
        Map<String, Object> nullValue = new LinkedHashMap<>();
        nullValue.put("owner", null);
        hostile.add(new Hostile("a null metadata value", ingest, json(Map.of("id", "n", "text", "t", "metadata", nullValue)), 400, "invalid-request"));
        hostile.add(new Hostile("a 3,000-character source", ingest, json(Map.of("id", "s", "text", "t", "source", "s".repeat(3000))), 400,
                "invalid-request"));
        hostile.add(new Hostile("a NUL in metadata (PostgreSQL's jsonb refuses it)", ingest,
                json(Map.of("id", "z", "text", "t", "metadata", Map.of("owner", "a\u0000b"))), 400, "invalid-request"));
        hostile.add(new Hostile("20 KB of metadata", ingest, json(Map.of("id", "m", "text", "t", "metadata",
                Map.of("a", "x".repeat(8000), "b", "x".repeat(8000), "c", "x".repeat(4000)))), 400, "metadata-too-large"));
        hostile.add(new Hostile("a batch with one document's metadata too large", ingest, json(List.of(Map.of("id", "ok", "text", "t"),
                Map.of("id", "m", "text", "t", "metadata", Map.of("a", "x".repeat(8000), "b", "x".repeat(8000), "c", "x".repeat(4000))))),
                400, "metadata-too-large"));
        hostile.add(new Hostile("an ingest body nested 3,000 deep", ingest, "{\"id\":\"d\",\"text\":\"t\",\"metadata\":{\"a\":"
                + "[".repeat(3000) + "]".repeat(3000) + "}}", 400, "json-too-deep"));
        return hostile;
    }

    /** What is wrong with the answer to a hostile input, or null when it is the expected problem. */
    private static String misanswered(ServerClient.Response response, Hostile hostile) {
        if (response.status() != hostile.status() || !response.isProblem()
                || !response.json().path("type").asText().endsWith("/" + hostile.type()) || response.json().path("detail").asText().isBlank()) {
            String body = response.body();
            return hostile.name() + ": " + response.status() + " " + body.substring(0, Math.min(200, body.length()));
        }
        return null;
    }

    @Test
    void hostileInputsAreTheCallersErrorsAndTheTenantIsStillServed() {
        List<String> wrong = new ArrayList<>(); // every wrong answer, so one run shows them all
        for (String tenant : tenants()) {
            for (Hostile hostile : hostileInputs()) {
                String token = hostile.route().equals("documents") ? writer(tenant) : reader(tenant);
                String path = "api/v1/tenants/" + tenant + "/" + hostile.route();
                ServerClient.Response last = null;
                java.util.Set<String> misanswers = new java.util.LinkedHashSet<>();
                for (int i = 0; i < REPEATS; i++) {
                    last = CLIENT.post(path, token, hostile.body());
                    String problem = misanswered(last, hostile);
                    if (problem != null) {
                        misanswers.add(problem);
                    }
                }
                misanswers.forEach(m -> wrong.add(tenant + ": " + m));
                String detail = last.isProblem() ? last.json().path("detail").asText() : last.body();
                System.out.println("CallerErrorsIT " + tenant + ": " + hostile.name() + " → " + last.status() + ": "
                        + detail.substring(0, Math.min(160, detail.length())));
            }
            for (String mode : List.of("keyword", "vector", "hybrid")) {
                ServerClient.Response served = CLIENT.post("api/v1/tenants/" + tenant + "/retrieve", reader(tenant),
                        Map.of("query", "when are the lanterns lit", "mode", mode, "filter", Map.of("team", "harbour")));
                if (served.status() != 200 || !served.json().get("passages").get(0).get("text").asText().contains("Lanterns are lit")) {
                    wrong.add(tenant + ": a " + mode + " retrieve afterwards: " + served.status() + " " + served.body());
                }
            }
            ServerClient.Response stored = CLIENT.post(documents(tenant), writer(tenant), Map.of("id", "after", "text", "Nets are mended at noon."));
            if (stored.status() != 201) {
                wrong.add(tenant + ": an ingest afterwards: " + stored.status() + " " + stored.body());
            }
            for (String id : List.of("n", "s", "z", "m", "ok", "d")) {
                if (CLIENT.get(documents(tenant) + "/" + id, writer(tenant)).status() != 404) {
                    wrong.add(tenant + ": the refused document '" + id + "' was stored");
                }
            }
        }
        PrometheusText metrics = PrometheusText.parse(CLIENT.get("metrics", null).body());
        for (String tenant : tenants()) {
            List<String> calls = metrics.samples().stream()
                    .filter(s -> s.startsWith("corpora_plugin_call_seconds_count") && s.contains("tenant=\"" + tenant + "\"")).toList();
            assertTrue(calls.stream().anyMatch(s -> s.contains("outcome=\"success\"")), "the tenant's plugin calls are measured: " + calls);
            calls.stream().filter(s -> Arrays.stream(new String[] {"failed", "timeout", "circuit_open", "bulkhead_full"})
                    .anyMatch(outcome -> s.contains("outcome=\"" + outcome + "\""))).forEach(s -> wrong.add("counted as a plugin failure: " + s));
        }
        assertEquals(List.of(), wrong, "input the caller controls must be a 4xx problem and never a plugin failure");
    }
}
