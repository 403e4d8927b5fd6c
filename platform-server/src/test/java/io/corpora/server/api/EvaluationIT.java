package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.retrieval.evaluation.RetrievalMetrics;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Per-tenant evaluation over HTTP (issue 16): a judged set run as a chosen actor scores what the public retrieve route
 * returns to that actor — the same numbers {@link RetrievalMetrics} gives over those results, to 4 decimals — a judged
 * document the actor may not see counts as not retrieved, and the recommendation changes the tenant only on {@code :apply}
 * (audited).
 */
class EvaluationIT extends DeployedServer {

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String T = TenantFixtures.uniqueId("eval");
    private static final String BASE = "api/v1/tenants/" + T;
    private static final String PLATFORM_ADMIN = CLIENT.token("ops", null, Roles.PLATFORM_ADMIN);

    private static final Map<String, String> QUERIES = new LinkedHashMap<>();
    private static final Map<String, Map<String, Integer>> QRELS = new LinkedHashMap<>();

    private static String admin(List<String> groups) {
        return CLIENT.token("ada", T, List.of(Roles.TENANT_ADMIN), Map.of("acl_groups", groups));
    }

    private static String reader(List<String> groups) {
        return CLIENT.token("rita", T, List.of(Roles.READER), Map.of("acl_groups", groups));
    }

    @BeforeAll
    static void aTenantWithAJudgedSet() {
        FIXTURES.create(T, List.of(), true);
        Map<String, String[]> docs = new LinkedHashMap<>();
        docs.put("d1", new String[] {"Photosynthesis converts sunlight, water and carbon dioxide into glucose and oxygen in plant chloroplasts.", "public"});
        docs.put("d2", new String[] {"Mitochondria produce ATP through cellular respiration; glucose is their fuel.", "public"});
        docs.put("d3", new String[] {"Volcanoes erupt when magma rises through the crust and releases gas and lava.", "public"});
        docs.put("d4", new String[] {"Earthquakes happen when tectonic plates slip along a fault and release seismic waves.", "public"});
        docs.put("d5", new String[] {"Merger memo: the board approves the acquisition of Initech for forty million dollars.", "group:legal"});
        docs.put("d6", new String[] {"Quarterly sales grew in the northern region thanks to the new coffee machines.", "public"});
        List<Map<String, Object>> batch = new ArrayList<>();
        docs.forEach((id, d) -> batch.add(Map.of("id", id, "text", d[0], "metadata", Map.of("audience", List.of(d[1])))));
        String writer = CLIENT.token("walt", T, List.of(Roles.WRITER), Map.of("acl_groups", List.of("legal")));
        ServerClient.Response accepted = CLIENT.post(BASE + "/documents", writer, batch);
        assertEquals(202, accepted.status(), accepted.body());
        assertEquals("SUCCEEDED", FIXTURES.awaitJob(accepted.location(), writer).get("status").asText());

        QUERIES.put("q1", "how do plants make glucose from sunlight");
        QUERIES.put("q2", "what causes lava eruptions");
        QUERIES.put("q3", "seismic waves from tectonic plates");
        QUERIES.put("q4", "acquisition of Initech approved by the board");
        QRELS.put("q1", Map.of("d1", 2, "d2", 1));
        QRELS.put("q2", Map.of("d3", 1));
        QRELS.put("q3", Map.of("d4", 2, "d3", 1));
        QRELS.put("q4", Map.of("d5", 2)); // visible to group legal only
    }

    @Test
    void anEvaluationScoresWhatTheActorRetrievesAndChangesNothingUntilApplied() {
        String admin = admin(List.of());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("queries", QUERIES);
        body.put("qrels", QRELS);
        body.put("recallAt", 5);
        body.put("actor", Map.of("groups", List.of()));
        body.put("candidates", List.of(
                Map.of("mode", "hybrid", "fusion", Map.of("method", "convex", "alpha", 0.7, "normalization", "minmax")),
                Map.of("mode", "hybrid", "fusion", Map.of("method", "convex", "alpha", 0.3, "normalization", "zscore")),
                Map.of("mode", "vector"), Map.of("mode", "keyword")));
        ServerClient.Response accepted = CLIENT.post(BASE + "/evaluations", admin, body);
        assertEquals(202, accepted.status(), accepted.body());
        String id = accepted.json().get("id").asText();
        JsonNode done = await(id, admin);
        assertEquals("SUCCEEDED", done.get("status").asText(), done.toString());
        assertEquals(4, done.get("judgedSet").get("queries").asInt());
        assertEquals(6, done.get("judgedSet").get("judgements").asInt());
        assertEquals(100, done.get("progress").get("percent").asInt(), done.toString());
        assertNull(textOrNull(done.get("appliedAt")), "nothing is applied without :apply");

        JsonNode candidates = done.get("candidates");
        assertEquals(4, candidates.size(), done.toString());
        String reader = reader(List.of());
        for (JsonNode c : candidates) {
            JsonNode fingerprint = c.get("fingerprint");
            assertEquals(c.get("mode").asText(), fingerprint.get("mode").asText());
            assertEquals("lucene", fingerprint.get("store").asText(), c.toString());
            assertTrue(fingerprint.get("embedder").asText().length() > 0, c.toString());
            JsonNode q4 = score(c, "q4");
            // the legal memo is the only judged document of q4, and this actor may not see it
            assertEquals(0.0, q4.get("ndcg10").asDouble(), c.toString());
            assertEquals(0.0, q4.get("recall").asDouble(), c.toString());
            if (!c.get("mode").asText().equals("hybrid")) {
                assertMatchesRetrieveRoute(c, reader, 5); // vector and keyword do not depend on the tenant's fusion
            }
        }

        // the tenant is still on the standard fusion (convex, z-score, alpha 0.6) until :apply
        JsonNode before = CLIENT.get("admin/v1/tenants/" + T, PLATFORM_ADMIN).json();
        assertEquals("hybrid", before.get("retrieval").get("mode").asText(), before.toString());
        assertTrue(onTheStandardFusion(before), before.toString());

        ServerClient.Response applied = CLIENT.post(BASE + "/evaluations/" + id + ":apply", admin, Map.of());
        assertEquals(200, applied.status(), applied.body());
        assertEquals("ada", applied.json().get("appliedBy").asText());
        JsonNode best = candidates.get(done.get("recommended").asInt());
        assertEquals(best.get("label").asText(), done.get("recommendation").asText());
        System.out.println("EvaluationIT recommended " + best.get("label").asText() + " nDCG@10 " + best.get("ndcg10").asDouble());
        JsonNode after = CLIENT.get("admin/v1/tenants/" + T, PLATFORM_ADMIN).json();
        assertEquals(best.get("mode").asText(), after.get("retrieval").get("mode").asText(), after.toString());
        if (best.get("mode").asText().equals("hybrid")) {
            assertEquals("convex", fusionMethod(after), after.toString());
            assertEquals(best.get("fusion").get("alpha").asDouble(), after.get("retrieval").get("fusion").get("alpha").asDouble(), 1e-9);
            assertMatchesRetrieveRoute(best, reader, 5); // the route now fuses as the recommended candidate does
        }
        JsonNode audit = CLIENT.get("admin/v1/audit?tenant=" + T + "&action=evaluation.apply", PLATFORM_ADMIN).json().get("events");
        assertEquals(1, audit.size(), audit.toString());
        assertEquals(id, audit.get(0).get("target").asText());
        assertEquals("ada", audit.get(0).get("actor").asText());

        ServerClient.Response again = CLIENT.post(BASE + "/evaluations/" + id + ":apply", admin, Map.of());
        assertEquals(409, again.status(), again.body());

        // as an actor of group legal, the memo is retrieved and q4 scores
        Map<String, Object> legal = new LinkedHashMap<>(body);
        legal.put("actor", Map.of("groups", List.of("legal")));
        legal.put("candidates", List.of(Map.of("mode", "keyword")));
        ServerClient.Response second = CLIENT.post(BASE + "/evaluations", admin, legal);
        assertEquals(202, second.status(), second.body());
        JsonNode legalRun = await(second.json().get("id").asText(), admin);
        JsonNode keyword = legalRun.get("candidates").get(0);
        assertTrue(score(keyword, "q4").get("recall").asDouble() > 0, legalRun.toString());
        assertMatchesRetrieveRoute(keyword, reader(List.of("legal")), 5);
        assertEquals(List.of("legal"), List.of(legalRun.get("actor").get("groups").get(0).asText()));

        JsonNode history = CLIENT.get(BASE + "/evaluations?limit=1", admin).json();
        assertEquals(second.json().get("id").asText(), history.get("evaluations").get(0).get("id").asText(), "newest first");
        assertEquals(1, history.get("next").asInt(), history.toString());
        JsonNode listedQueries = history.get("evaluations").get(0).get("candidates").get(0).get("queries");
        assertTrue(listedQueries == null || listedQueries.isNull(), "a listing leaves per-query scores out: " + history);
    }

    @Test
    void aRunMadeWorseOnPurposeIsFlaggedAgainstThePreviousRunWithTheQueriesThatGotWorse() {
        RegressedEvaluations runs = new RegressedEvaluations(CLIENT);
        RegressedEvaluations.History history = runs.create(TenantFixtures.uniqueId("evalreg"));
        String base = RegressedEvaluations.base(history.tenant());
        JsonNode first = history.first();
        JsonNode none = first.get("candidates").get(0).get("comparison");
        assertTrue(none == null || none.isNull(), "nothing to compare the first run with: " + first);
        assertEquals(false, first.get("regression").asBoolean());
        double before = first.get("candidates").get(0).get("ndcg10").asDouble();
        assertTrue(before > 0.9, first.toString());

        // the second run, after the judged documents of q1 and q3 were deleted
        JsonNode worse = history.worse();
        JsonNode candidate = worse.get("candidates").get(0);
        JsonNode comparison = candidate.get("comparison");
        assertTrue(worse.get("regression").asBoolean(), worse.toString());
        assertTrue(comparison.get("regression").asBoolean(), comparison.toString());
        assertEquals(first.get("id").asText(), comparison.get("previous").asText());
        assertEquals(0.01, comparison.get("maxDrop").asDouble());
        assertEquals(round(candidate.get("ndcg10").asDouble() - before), round(comparison.get("ndcg10Delta").asDouble()));
        assertTrue(comparison.get("recallDelta").asDouble() < 0, comparison.toString());
        List<String> worsened = new ArrayList<>();
        comparison.get("worse").forEach(w -> worsened.add(w.get("queryId").asText()));
        assertEquals(List.of("q1", "q3"), worsened.stream().sorted().toList(), comparison.toString());
        JsonNode listed = CLIENT.get(base + "/evaluations?limit=5", history.adminToken()).json().get("evaluations").get(0);
        assertTrue(listed.get("regression").asBoolean(), "the history flags it too: " + listed);

        // a maxDrop outside 0..1 is a problem; the same run with a tolerance of 1 is compared with the worse run: no flag
        ServerClient.Response badDrop = CLIENT.post(base + "/evaluations", history.adminToken(), with(history.body(), "maxDrop", -0.5));
        assertEquals(400, badDrop.status(), badDrop.body());
        assertTrue(badDrop.contentType().startsWith("application/problem+json"), badDrop.contentType());
        JsonNode tolerant = runs.evaluate(history.tenant(), history.adminToken(), with(history.body(), "maxDrop", 1.0));
        assertEquals(worse.get("id").asText(), tolerant.get("candidates").get(0).get("comparison").get("previous").asText());
        assertEquals(false, tolerant.get("regression").asBoolean(), tolerant.toString());
    }

    private static Map<String, Object> with(Map<String, Object> body, String key, Object value) {
        Map<String, Object> copy = new LinkedHashMap<>(body);
        copy.put(key, value);
        return copy;
    }

    @Test
    void badRequestsAreProblemsAndOnlyATenantAdminMayEvaluate() {
        String admin = admin(List.of());
        ServerClient.Response empty = CLIENT.post(BASE + "/evaluations", admin, Map.of("queries", Map.of()));
        assertEquals(400, empty.status(), empty.body());
        assertTrue(empty.contentType().startsWith("application/problem+json"), empty.contentType());
        ServerClient.Response unknownQuery = CLIENT.post(BASE + "/evaluations", admin,
                Map.of("queries", Map.of("q1", "glucose"), "qrelsTsv", "query-id\tcorpus-id\tscore\nq9\td1\t1\n"));
        assertEquals(422, unknownQuery.status(), unknownQuery.body());
        ServerClient.Response badMode = CLIENT.post(BASE + "/evaluations", admin,
                Map.of("queries", Map.of("q1", "glucose"), "qrels", Map.of("q1", Map.of("d1", 1)), "candidates", List.of(Map.of("mode", "fuzzy"))));
        assertEquals(422, badMode.status(), badMode.body());
        Map<String, String> tooMany = new LinkedHashMap<>();
        for (int i = 0; i <= 2000; i++) {
            tooMany.put("q" + i, "query " + i);
        }
        ServerClient.Response bounded = CLIENT.post(BASE + "/evaluations", admin, Map.of("queries", tooMany, "qrelsTsv", "q1 d1 1"));
        assertEquals(400, bounded.status(), bounded.body());
        assertEquals(403, CLIENT.post(BASE + "/evaluations", reader(List.of()),
                Map.of("queries", Map.of("q1", "glucose"), "qrels", Map.of("q1", Map.of("d1", 1)))).status());
        assertEquals(404, CLIENT.get(BASE + "/evaluations/ev-missing", admin).status());
    }

    /** Recomputes a candidate's per-query and mean scores from the public retrieve route as {@code token}. */
    private static void assertMatchesRetrieveRoute(JsonNode candidate, String token, int recallAt) {
        double ndcg = 0;
        double recall = 0;
        double mrr = 0;
        for (Map.Entry<String, String> q : QUERIES.entrySet()) {
            ServerClient.Response r = CLIENT.post(BASE + "/retrieve", token, Map.of("query", q.getValue(), "mode", candidate.get("mode").asText(),
                    "topK", 100, "maxChars", 10_000_000));
            assertEquals(200, r.status(), r.body());
            LinkedHashSet<String> ranking = new LinkedHashSet<>();
            r.json().get("passages").forEach(p -> ranking.add(p.get("citation").get("documentId").asText()));
            ranking.remove(q.getKey());
            List<String> ranked = new ArrayList<>(ranking);
            Map<String, Integer> grades = QRELS.get(q.getKey());
            double n = RetrievalMetrics.ndcg(ranked, grades, 10);
            double rc = RetrievalMetrics.recall(ranked, grades, recallAt);
            double m = RetrievalMetrics.reciprocalRank(ranked, grades, 10);
            JsonNode s = score(candidate, q.getKey());
            String where = candidate.get("label").asText() + " " + q.getKey() + " " + ranked;
            assertEquals(round(n), round(s.get("ndcg10").asDouble()), where);
            assertEquals(round(rc), round(s.get("recall").asDouble()), where);
            assertEquals(round(m), round(s.get("mrr10").asDouble()), where);
            ndcg += n;
            recall += rc;
            mrr += m;
        }
        int size = QUERIES.size();
        assertEquals(round(ndcg / size), round(candidate.get("ndcg10").asDouble()), candidate.get("label").asText());
        assertEquals(round(recall / size), round(candidate.get("recall").asDouble()), candidate.get("label").asText());
        assertEquals(round(mrr / size), round(candidate.get("mrr10").asDouble()), candidate.get("label").asText());
    }

    private static String round(double v) {
        return String.format(java.util.Locale.ROOT, "%.4f", v);
    }

    private static JsonNode score(JsonNode candidate, String queryId) {
        for (JsonNode s : candidate.get("queries")) {
            if (s.get("queryId").asText().equals(queryId)) {
                return s;
            }
        }
        throw new AssertionError("no score of " + queryId + " in " + candidate);
    }

    private static String fusionMethod(JsonNode tenant) {
        JsonNode fusion = tenant.get("retrieval").get("fusion");
        return fusion == null || fusion.isNull() || fusion.get("method") == null ? "convex" : fusion.get("method").asText();
    }

    private static boolean onTheStandardFusion(JsonNode tenant) {
        JsonNode fusion = tenant.get("retrieval").get("fusion");
        return fusion == null || fusion.isNull() || (fusionMethod(tenant).equals("convex") && fusion.path("alpha").asDouble(0.6) == 0.6
                && fusion.path("normalization").asText("zscore").equals("zscore"));
    }

    private static String textOrNull(JsonNode n) {
        return n == null || n.isNull() ? null : n.asText();
    }

    private static JsonNode await(String id, String token) {
        return FIXTURES.awaitJob(BASE + "/evaluations/" + id, token, Duration.ofMinutes(3));
    }
}
