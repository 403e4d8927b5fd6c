package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * 2,000+ random requests over every data-plane route (retrieve, retrieve:batch with neighbour expansion, GET documents,
 * GET document by path and by id, GET chunks, GET jobs, GET jobs/{id}, GET stats, DELETE) across three tenants, their
 * partitions and random tokens: ACL groups, partition bindings (also malformed claims: an array, a number), forged path
 * tenants and foreign partitions. Every document's text and metadata name its own namespace and audience, and the
 * fixture keeps which document lives where with which audience, so every response is judged against that ground
 * truth, independently of anything the server says: no passage, chunk text, document id or metadata of a document
 * the token may not see, exact stats counts, 404 for hidden documents, jobs only of the token's partition.
 */
class RandomizedIsolationIT extends DeployedServer {

    private static final int REQUESTS = 2000;
    private static final int DOCUMENTS_PER_NAMESPACE = 6;
    private static final List<String> AUDIENCES = List.of("public", "group:red", "group:blue", "user:ann", "user:bob");
    private static final List<String> WORDS = List.of("budget", "travel", "security", "onboarding", "benefits", "compliance");
    private static final Pattern MARKER = Pattern.compile("marker ([A-Za-z0-9_-]+) ([A-Za-z0-9_-]+) audience ([A-Za-z0-9:_-]+)");
    /** Partition claims of the wrong JSON type: refused with 401 (claims fail closed), never read as an unbound token. */
    private static final List<Object> MALFORMED_PARTITIONS = List.of(List.of("p1"), 7);

    private final ServerClient client = ServerClient.fromBuild();
    private final TenantFixtures fixtures = new TenantFixtures(client);

    private record Space(String tenant, String partition) {
        String partitionKey() {
            return partition == null ? "_default" : partition;
        }
    }

    /** What the fixture knows: every namespace's documents (id → audience) and jobs (id → namespace), whatever the server says. */
    private static final class GroundTruth {
        final Map<String, Boolean> hooked = new HashMap<>();
        final Map<String, List<String>> partitions = new HashMap<>();
        final Map<Space, Map<String, String>> documents = new LinkedHashMap<>();
        final Map<String, Space> jobs = new HashMap<>();

        List<Space> spacesOf(String tenant) {
            return documents.keySet().stream().filter(s -> s.tenant().equals(tenant)).toList();
        }
    }

    /** The token of one request, as the oracle reads it. */
    private record Caller(String tenant, String subject, List<String> groups, String boundPartition, boolean malformedPartition) {
        Set<String> held() {
            Set<String> held = new TreeSet<>(List.of("public", "user:" + subject));
            groups.forEach(g -> held.add("group:" + g));
            return held;
        }
    }

    @Test
    void noRouteEverShowsATokenWhatItMayNotSee() {
        Random random = new Random(20261130L);
        GroundTruth truth = new GroundTruth();
        String t1 = TenantFixtures.uniqueId("rnd-one");
        String t2 = TenantFixtures.uniqueId("rnd-two");
        String t3 = TenantFixtures.uniqueId("rnd-acl");
        fixtures.create(t1, List.of("p1"), false);
        fixtures.create(t2, List.of("p1"), false);
        fixtures.create(t3, List.of("p1", "p2"), true);
        truth.hooked.putAll(Map.of(t1, false, t2, false, t3, true));
        truth.partitions.putAll(Map.of(t1, List.of("p1"), t2, List.of("p1"), t3, List.of("p1", "p2")));
        for (String tenant : List.of(t1, t2, t3)) {
            ingest(truth, new Space(tenant, null), random);
            for (String p : truth.partitions.get(tenant)) {
                ingest(truth, new Space(tenant, p), random);
            }
        }

        List<String> tenants = List.of(t1, t2, t3);
        List<String> violations = new ArrayList<>();
        Map<String, Integer> answered = new TreeMap<>();
        int checkedItems = 0;
        int refused = 0;
        for (int i = 0; i < REQUESTS; i++) {
            Caller caller = randomCaller(truth, tenants, random);
            String pathTenant = random.nextInt(12) == 0 ? tenants.get(random.nextInt(3)) : caller.tenant();
            String requestedPartition = switch (random.nextInt(6)) {
                case 0 -> "p1";
                case 1 -> "p2";
                case 2 -> "_default";
                default -> null;
            };
            // Deletes are rare, so the corpus is not emptied before the other routes have been exercised on it.
            String route = random.nextInt(50) == 0 ? "delete"
                    : List.of("retrieve", "batch", "list", "get", "get-by-id", "chunks", "jobs", "job", "stats").get(random.nextInt(9));
            Request request = request(route, pathTenant, requestedPartition, truth, random);
            boolean writer = route.equals("delete");
            String token = token(caller, writer ? Roles.WRITER : Roles.READER, random);
            ServerClient.Response response = request.send(client, token);
            answered.merge(route + " " + response.status(), 1, Integer::sum);
            String where = "request " + i + " " + route + " " + request.path + " as " + caller;

            if (caller.malformedPartition()) { // claims fail closed, before any path check: never read as "unbound"
                if (response.status() != 401) {
                    violations.add(where + ": expected 401 for a malformed partition claim, got " + response.status() + " " + response.body());
                }
                refused++;
                continue;
            }
            if (!pathTenant.equals(caller.tenant())) {
                expect(violations, where, response, 403);
                refused++;
                continue;
            }
            Space scope = scope(truth, caller, request.partitionScoped ? requestedPartition : null);
            if (scope == null) { // a partition the token is not bound to, or one the tenant does not declare
                if (response.status() != 400 && response.status() != 403) {
                    violations.add(where + ": expected 400/403 for a foreign partition, got " + response.status() + " " + response.body());
                }
                refused++;
                continue;
            }
            checkedItems += judge(route, request, response, caller, scope, truth, violations, where);
        }
        assertEquals(List.of(), violations.subList(0, Math.min(20, violations.size())), violations.size() + " violations");
        assertTrue(checkedItems > 2000, "the test must actually see passages, documents, chunks and outcomes: " + checkedItems);
        assertTrue(refused > 100, "forged and foreign requests must be exercised: " + refused);
        for (String route : List.of("retrieve 200", "batch 200", "list 200", "get 200", "get 404", "get-by-id 200", "chunks 200",
                "chunks 404", "jobs 200", "job 200", "job 404", "stats 200", "delete 204", "delete 404")) {
            assertTrue(answered.getOrDefault(route, 0) > 0, "every route and outcome is exercised; answered: " + answered);
        }
        System.out.println("RandomizedIsolationIT: " + answered);
    }

    /** Checks one accepted response against the ground truth; returns how many items it checked. */
    private int judge(String route, Request request, ServerClient.Response response, Caller caller, Space scope, GroundTruth truth,
                      List<String> violations, String where) {
        Map<String, String> inScope = truth.documents.get(scope);
        boolean hooked = truth.hooked.get(caller.tenant());
        int checked = 0;
        switch (route) {
            case "retrieve", "batch" -> {
                if (!expect(violations, where, response, 200)) {
                    return 0;
                }
                List<JsonNode> results = new ArrayList<>();
                if (route.equals("batch")) {
                    response.json().get("results").forEach(results::add);
                } else {
                    results.add(response.json());
                }
                for (JsonNode result : results) {
                    for (JsonNode passage : result.get("passages")) {
                        checked++;
                        checkMarkers(passage.toString(), caller, scope, truth, violations, where);
                    }
                }
            }
            case "list" -> {
                if (!expect(violations, where, response, 200)) {
                    return 0;
                }
                List<String> listed = new ArrayList<>();
                for (JsonNode document : response.json().get("documents")) {
                    checked++;
                    listed.add(document.get("id").asText());
                    checkMarkers(document.toString(), caller, scope, truth, violations, where);
                }
                List<String> expected = inScope.entrySet().stream().filter(e -> visible(hooked, caller, e.getValue()))
                        .map(Map.Entry::getKey).sorted().toList();
                if (!listed.equals(expected)) {
                    violations.add(where + ": listed " + listed + ", visible " + expected);
                }
            }
            case "get", "get-by-id", "chunks" -> {
                String audience = inScope.get(request.documentId);
                boolean visible = audience != null && visible(hooked, caller, audience);
                if (!expect(violations, where, response, visible ? 200 : 404)) {
                    return 0;
                }
                if (!visible && response.body().contains("marker ")) {
                    violations.add(where + ": a 404 carried document content " + response.body());
                }
                checked++;
                checkMarkers(response.body(), caller, scope, truth, violations, where);
            }
            case "delete" -> {
                String audience = inScope.get(request.documentId);
                boolean visible = audience != null && visible(hooked, caller, audience);
                if (expect(violations, where, response, visible ? 204 : 404) && visible) {
                    inScope.remove(request.documentId);
                }
                checked++;
            }
            case "jobs", "job" -> {
                Space jobSpace = request.jobId == null ? null : truth.jobs.get(request.jobId);
                boolean jobVisible = jobSpace != null && jobSpace.tenant().equals(caller.tenant())
                        && (caller.boundPartition() == null || caller.boundPartition().equals(jobSpace.partitionKey()));
                if (!expect(violations, where, response, route.equals("jobs") || jobVisible ? 200 : 404)) {
                    return 0;
                }
                List<JsonNode> jobs = new ArrayList<>();
                if (route.equals("jobs")) {
                    response.json().get("jobs").forEach(jobs::add);
                } else if (jobVisible) {
                    jobs.add(response.json());
                }
                for (JsonNode job : jobs) {
                    Space space = truth.jobs.get(job.get("id").asText());
                    if (space == null || !space.tenant().equals(caller.tenant())
                            || (caller.boundPartition() != null && !caller.boundPartition().equals(space.partitionKey()))) {
                        violations.add(where + ": a job the token may not see: " + job);
                        continue;
                    }
                    int shown = 0;
                    for (JsonNode outcome : job.get("outcomes")) {
                        checked++;
                        shown++;
                        String audience = truth.documents.get(space).get(outcome.get("documentId").asText());
                        if (hooked && (audience == null || !visible(true, caller, audience))) {
                            violations.add(where + ": outcome of a document the token may not see: " + outcome);
                        }
                    }
                    int counted = job.get("succeeded").asInt() + job.get("skipped").asInt() + job.get("failed").asInt();
                    if (counted != shown || job.get("total").asInt() != shown) {
                        violations.add(where + ": counts do not match the outcomes shown: " + job);
                    }
                }
            }
            case "stats" -> {
                if (!expect(violations, where, response, 200)) {
                    return 0;
                }
                JsonNode stats = response.json();
                Map<String, Long> expected = new TreeMap<>();
                for (Space space : truth.spacesOf(caller.tenant())) {
                    if (caller.boundPartition() == null || caller.boundPartition().equals(space.partitionKey())) {
                        long count = truth.documents.get(space).values().stream().filter(a -> visible(hooked, caller, a)).count();
                        if (count > 0) {
                            expected.put(space.partitionKey(), count);
                        }
                    }
                }
                Map<String, Long> byPartition = new TreeMap<>();
                stats.get("documentsByPartition").fields().forEachRemaining(e -> byPartition.put(e.getKey(), e.getValue().asLong()));
                long total = expected.values().stream().mapToLong(Long::longValue).sum();
                if (!byPartition.equals(expected) || stats.get("documents").asLong() != total) {
                    violations.add(where + ": stats " + stats + ", visible " + expected);
                }
                checked++;
            }
            default -> throw new IllegalStateException(route);
        }
        return checked;
    }

    /** Every marker in a response must name the request's namespace and an audience the caller holds. */
    private static void checkMarkers(String body, Caller caller, Space scope, GroundTruth truth, List<String> violations, String where) {
        Matcher m = MARKER.matcher(body);
        while (m.find()) {
            boolean visible = m.group(1).equals(scope.tenant()) && m.group(2).equals(scope.partitionKey())
                    && visible(truth.hooked.get(scope.tenant()), caller, m.group(3));
            if (!visible) {
                violations.add(where + ": saw " + m.group() + " in " + scope);
            }
        }
    }

    private static boolean visible(boolean hooked, Caller caller, String audience) {
        return !hooked || caller.held().contains(audience);
    }

    /** The namespace a request lands in, or null when it must be refused (the token bound elsewhere, or an undeclared partition). */
    private static Space scope(GroundTruth truth, Caller caller, String requestedPartition) {
        String partition = requestedPartition == null || requestedPartition.isBlank() ? caller.boundPartition() : requestedPartition;
        if (caller.boundPartition() != null && !caller.boundPartition().equals(partition)) {
            return null;
        }
        if (partition == null || partition.equals("_default")) {
            return new Space(caller.tenant(), null);
        }
        return truth.partitions.get(caller.tenant()).contains(partition) ? new Space(caller.tenant(), partition) : null;
    }

    private static Caller randomCaller(GroundTruth truth, List<String> tenants, Random random) {
        String tenant = tenants.get(random.nextInt(3));
        List<String> groups = new ArrayList<>();
        if (random.nextBoolean()) {
            groups.add("red");
        }
        if (random.nextBoolean()) {
            groups.add("blue");
        }
        int binding = random.nextInt(10);
        String bound = binding == 0 ? pick(truth.partitions.get(tenant), random) : binding == 1 ? "_default" : null;
        boolean malformed = binding == 2;
        return new Caller(tenant, List.of("ann", "bob", "cid").get(random.nextInt(3)), groups, bound, malformed);
    }

    private String token(Caller caller, String role, Random random) {
        Map<String, Object> claims = new HashMap<>();
        claims.put("acl_groups", caller.groups());
        if (caller.boundPartition() != null) {
            claims.put("partition", caller.boundPartition());
        } else if (caller.malformedPartition()) {
            claims.put("partition", pick(MALFORMED_PARTITIONS, random));
        }
        return client.token(caller.subject(), caller.tenant(), List.of(role), claims);
    }

    /** One request of a route; {@code partitionScoped}: whether the requested partition applies (jobs and stats ignore it). */
    private record Request(String method, String path, Object body, boolean partitionScoped, String documentId, String jobId) {
        ServerClient.Response send(ServerClient client, String token) {
            return switch (method) {
                case "POST" -> client.post(path, token, body);
                case "DELETE" -> client.delete(path, token);
                default -> client.get(path, token);
            };
        }
    }

    private static Request request(String route, String tenant, String partition, GroundTruth truth, Random random) {
        String base = "api/v1/tenants/" + tenant;
        String partitionQuery = partition == null ? "" : "partition=" + partition;
        List<Space> spaces = new ArrayList<>(truth.documents.keySet());
        Space anySpace = spaces.get(random.nextInt(spaces.size()));
        List<String> ids = new ArrayList<>(truth.documents.get(anySpace).keySet());
        String documentId = ids.isEmpty() ? "doc-0" : pick(ids, random); // ids repeat across namespaces: a guess in any
        String idQuery = "id=" + DocumentAccessIT.encode(documentId) + (partition == null ? "" : "&" + partitionQuery);
        String pathQuery = partition == null ? "" : "?" + partitionQuery;
        return switch (route) {
            case "retrieve" -> new Request("POST", base + "/retrieve", retrieveBody(partition, random, true), true, null, null);
            case "batch" -> {
                Map<String, Object> body = new LinkedHashMap<>();
                body.put("queries", List.of(retrieveBody(null, random, false), retrieveBody(null, random, false)));
                if (partition != null) {
                    body.put("partition", partition);
                }
                yield new Request("POST", base + "/retrieve:batch", body, true, null, null);
            }
            case "list" -> new Request("GET", base + "/documents?limit=500" + (partition == null ? "" : "&" + partitionQuery), null, true, null, null);
            case "get" -> documentId.contains("/")
                    ? new Request("GET", base + "/document?" + idQuery, null, true, documentId, null)
                    : new Request("GET", base + "/documents/" + DocumentAccessIT.encode(documentId) + pathQuery, null, true, documentId, null);
            case "get-by-id" -> new Request("GET", base + "/document?" + idQuery, null, true, documentId, null);
            case "chunks" -> new Request("GET", base + "/document/chunks?" + idQuery, null, true, documentId, null);
            case "delete" -> new Request("DELETE", base + "/document?" + idQuery, null, true, documentId, null);
            case "jobs" -> new Request("GET", base + "/jobs?limit=200", null, false, null, null);
            case "job" -> {
                String jobId = pick(new ArrayList<>(truth.jobs.keySet()), random);
                yield new Request("GET", base + "/jobs/" + jobId, null, false, null, jobId);
            }
            case "stats" -> new Request("GET", base + "/stats", null, false, null, null);
            default -> throw new IllegalArgumentException(route);
        };
    }

    private static Map<String, Object> retrieveBody(String partition, Random random, boolean mayFilter) {
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("query", WORDS.get(random.nextInt(WORDS.size())) + " " + WORDS.get(random.nextInt(WORDS.size())));
        body.put("mode", random.nextInt(10) == 0 ? "hybrid" : "keyword");
        body.put("topK", 1 + random.nextInt(20));
        if (random.nextInt(3) == 0) {
            body.put("expandNeighbors", 1 + random.nextInt(2));
        }
        if (partition != null) {
            body.put("partition", partition);
        }
        if (mayFilter && random.nextInt(4) == 0) {
            body.put("filter", Map.of("audience", pick(AUDIENCES, random)));
        }
        body.put("tenant", "someone-else"); // ignored by design
        return body;
    }

    private static boolean expect(List<String> violations, String where, ServerClient.Response response, int status) {
        if (response.status() == status) {
            return true;
        }
        violations.add(where + ": expected " + status + ", got " + response.status() + " " + response.body());
        return false;
    }

    /** One batch job per namespace; ids repeat across namespaces on purpose, and some hold '/' (URL ingests, folders). */
    private void ingest(GroundTruth truth, Space space, Random random) {
        String writer = client.token("loader", space.tenant(), Roles.WRITER);
        Map<String, String> audiences = new LinkedHashMap<>();
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int d = 0; d < DOCUMENTS_PER_NAMESPACE; d++) {
            String id = d % 3 == 2 ? "dir/doc-" + d : "doc-" + d;
            String audience = pick(AUDIENCES, random);
            String marker = "marker " + space.tenant() + " " + space.partitionKey() + " audience " + audience;
            // Two paragraphs a chunk each, so neighbour expansion has neighbours to consider.
            String text = "Notes on " + WORDS.get(d % WORDS.size()) + " and " + WORDS.get((d + 2) % WORDS.size()) + " for the team. "
                    + marker + " .\n\nMore on " + WORDS.get((d + 1) % WORDS.size()) + ". " + marker + " .";
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("id", id);
            document.put("text", text);
            document.put("metadata", Map.of("audience", audience, "owner", marker, "_tenant", "someone-else"));
            if (space.partition() != null) {
                document.put("partition", space.partition());
            }
            batch.add(document);
            audiences.put(id, audience);
        }
        ServerClient.Response accepted = client.post("api/v1/tenants/" + space.tenant() + "/documents", writer, batch);
        assertEquals(202, accepted.status(), accepted.body());
        JsonNode job = fixtures.awaitJob(accepted.location(), writer);
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
        truth.documents.put(space, audiences);
        truth.jobs.put(job.get("id").asText(), space);
    }

    private static <T> T pick(List<T> values, Random random) {
        return values.get(random.nextInt(values.size()));
    }
}
