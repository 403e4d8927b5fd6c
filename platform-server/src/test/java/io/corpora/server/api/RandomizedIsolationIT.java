package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import io.corpora.server.Deployments;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * 2,000+ random requests across three tenants, their partitions and random ACL tokens, with forged path tenants,
 * foreign partitions and random filters mixed in. Every document's text names its own namespace and audience, so each
 * returned passage is checked against the ground truth of who may see it, independently of anything the server says.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class RandomizedIsolationIT {

    private static final int REQUESTS = 2000;
    private static final int DOCUMENTS_PER_NAMESPACE = 6;
    private static final List<String> AUDIENCES = List.of("public", "group:red", "group:blue", "user:ann", "user:bob");
    private static final List<String> WORDS = List.of("budget", "travel", "security", "onboarding", "benefits", "compliance");
    private static final Pattern MARKER = Pattern.compile("marker (\\S+) (\\S+) audience (\\S+)");

    private final ServerClient client = ServerClient.fromBuild();
    private final TenantFixtures fixtures = new TenantFixtures(client);

    @Deployment(testable = false)
    static WebArchive corpora() {
        return Deployments.corporaWar();
    }

    private record Space(String tenant, String partition, boolean hook) {
        String partitionKey() {
            return partition == null ? "_default" : partition;
        }
    }

    @Test
    void noRequestEverReturnsAPassageItsTokenMayNotSee() {
        Random random = new Random(20261130L);
        String t1 = TenantFixtures.uniqueId("rnd-one");
        String t2 = TenantFixtures.uniqueId("rnd-two");
        String t3 = TenantFixtures.uniqueId("rnd-acl");
        fixtures.create(t1, List.of("p1"), false);
        fixtures.create(t2, List.of("p1"), false);
        fixtures.create(t3, List.of("p1", "p2"), true);
        Map<String, Boolean> hooked = Map.of(t1, false, t2, false, t3, true);
        Map<String, List<String>> partitions = Map.of(t1, List.of("p1"), t2, List.of("p1"), t3, List.of("p1", "p2"));

        List<Space> spaces = new ArrayList<>();
        for (String tenant : List.of(t1, t2, t3)) {
            spaces.add(new Space(tenant, null, hooked.get(tenant)));
            partitions.get(tenant).forEach(p -> spaces.add(new Space(tenant, p, hooked.get(tenant))));
        }
        for (Space space : spaces) {
            ingest(space, random);
        }

        int checkedPassages = 0;
        int forbidden = 0;
        List<String> violations = new ArrayList<>();
        List<String> tenants = List.of(t1, t2, t3);
        for (int i = 0; i < REQUESTS; i++) {
            String tokenTenant = tenants.get(random.nextInt(3));
            String pathTenant = random.nextInt(10) == 0 ? tenants.get(random.nextInt(3)) : tokenTenant;
            String subject = List.of("ann", "bob", "cid").get(random.nextInt(3));
            List<String> groups = new ArrayList<>();
            if (random.nextBoolean()) {
                groups.add("red");
            }
            if (random.nextBoolean()) {
                groups.add("blue");
            }
            String tokenPartition = random.nextInt(8) == 0 ? pick(partitions.get(tokenTenant), random) : null;
            Map<String, Object> claims = new HashMap<>();
            claims.put("acl_groups", groups);
            if (tokenPartition != null) {
                claims.put("partition", tokenPartition);
            }
            String token = client.token(subject, tokenTenant, List.of(Roles.READER), claims);

            Map<String, Object> body = new LinkedHashMap<>();
            body.put("query", WORDS.get(random.nextInt(WORDS.size())) + " " + WORDS.get(random.nextInt(WORDS.size())));
            body.put("mode", random.nextInt(10) == 0 ? "hybrid" : "keyword");
            body.put("topK", 1 + random.nextInt(20));
            String requestedPartition = switch (random.nextInt(6)) {
                case 0 -> "p1";
                case 1 -> "p2";
                case 2 -> "_default";
                default -> null;
            };
            if (requestedPartition != null) {
                body.put("partition", requestedPartition);
            }
            if (random.nextInt(4) == 0) {
                body.put("filter", Map.of("audience", pick(AUDIENCES, random)));
            }
            body.put("tenant", tenants.get(random.nextInt(3))); // ignored by design

            ServerClient.Response response = client.post("api/v1/tenants/" + pathTenant + "/retrieve", token, body);
            if (!pathTenant.equals(tokenTenant)) {
                assertEquals(403, response.status(), "forged path tenant must be forbidden: " + response.body());
                forbidden++;
                continue;
            }
            String effectivePartition = requestedPartition == null || requestedPartition.equals("_default") ? tokenPartition : requestedPartition;
            if (requestedPartition != null && requestedPartition.equals("_default")) {
                effectivePartition = "_default";
            }
            if (response.status() != 200) {
                // Refusals are fine (foreign partition, token bound elsewhere); leaks are not. They must be 4xx problems.
                assertTrue(response.status() == 400 || response.status() == 403, response.status() + " " + response.body());
                forbidden++;
                continue;
            }
            String expectedPartition = effectivePartition == null ? (tokenPartition == null ? "_default" : tokenPartition) : effectivePartition;
            Set<String> held = new TreeSet<>(List.of("public", "user:" + subject));
            groups.forEach(g -> held.add("group:" + g));
            for (JsonNode passage : response.json().get("passages")) {
                checkedPassages++;
                Matcher m = MARKER.matcher(passage.get("text").asText());
                if (!m.find()) {
                    violations.add("unmarked passage " + passage);
                    continue;
                }
                String tenant = m.group(1);
                String partition = m.group(2);
                String audience = m.group(3);
                boolean visible = tenant.equals(tokenTenant) && partition.equals(expectedPartition)
                        && (!hooked.get(tokenTenant) || held.contains(audience));
                if (!visible) {
                    violations.add("request " + i + " (" + tokenTenant + "/" + expectedPartition + " as " + subject + groups + ") got "
                            + tenant + "/" + partition + " audience " + audience);
                }
            }
        }
        assertEquals(List.of(), violations);
        assertTrue(checkedPassages > 2000, "the test must actually see passages: " + checkedPassages);
        assertTrue(forbidden > 100, "forged requests must be exercised: " + forbidden);
    }

    private void ingest(Space space, Random random) {
        String writer = client.token("loader", space.tenant(), Roles.WRITER);
        List<Map<String, Object>> batch = new ArrayList<>();
        for (int d = 0; d < DOCUMENTS_PER_NAMESPACE; d++) {
            String audience = pick(AUDIENCES, random);
            String text = "Notes on " + WORDS.get(d % WORDS.size()) + " and " + WORDS.get((d + 2) % WORDS.size()) + " for the team. marker "
                    + space.tenant() + " " + space.partitionKey() + " audience " + audience + " .";
            Map<String, Object> document = new LinkedHashMap<>();
            document.put("id", "doc-" + d); // equal ids in every namespace on purpose
            document.put("text", text);
            document.put("metadata", Map.of("audience", audience, "_tenant", "someone-else"));
            if (space.partition() != null) {
                document.put("partition", space.partition());
            }
            batch.add(document);
        }
        ServerClient.Response accepted = client.post("api/v1/tenants/" + space.tenant() + "/documents", writer, batch);
        assertEquals(202, accepted.status(), accepted.body());
        JsonNode job = fixtures.awaitJob(accepted.location(), writer);
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
    }

    private static <T> T pick(List<T> values, Random random) {
        return values.get(random.nextInt(values.size()));
    }
}
