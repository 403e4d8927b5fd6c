package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Rebuild requests sent together for one namespace start one rebuild; the others are refused with 409
 * {@code rebuild-in-progress} naming the job to follow, so no document is re-pushed twice at once
 * ({@code JobRepository.createRebuild} checks the control plane, so servers sharing it refuse too). Without the check,
 * each request queued a rebuild of its own, and rebuilds running side by side failed each other's documents as
 * concurrent writes (409 outcomes).
 */
class ConcurrentRebuildIT extends DeployedServer {

    private static final int DOCUMENTS = 24;
    private static final int REQUESTS = 8;

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);

    @Test
    void rebuildsSentTogetherRunOnceAndTheRestAreRefusedNamingIt() throws Exception {
        String tenant = TenantFixtures.uniqueId("rebuilds");
        FIXTURES.create(tenant, List.of(), false);
        String admin = CLIENT.token("rebuilds", tenant, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        String base = "api/v1/tenants/" + tenant;
        ServerClient.Response uploaded = CLIENT.postMultipart(base + "/documents", admin, files());
        assertEquals(202, uploaded.status(), uploaded.body());
        assertEquals("SUCCEEDED", FIXTURES.awaitJob(uploaded.location(), admin, Duration.ofMinutes(5)).get("status").asText());

        List<ServerClient.Response> answers = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(REQUESTS);
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<ServerClient.Response>> sent = new ArrayList<>();
            for (int r = 0; r < REQUESTS; r++) {
                sent.add(clients.submit(() -> {
                    go.await();
                    return CLIENT.post(base + "/index:rebuild", admin, Map.of());
                }));
            }
            go.countDown();
            for (Future<ServerClient.Response> answer : sent) {
                answers.add(answer.get());
            }
        } finally {
            clients.shutdownNow();
        }

        List<String> acceptedJobs = new ArrayList<>();
        List<String> namedInRefusals = new ArrayList<>();
        for (ServerClient.Response answer : answers) {
            if (answer.status() == 202) {
                assertEquals("rebuild", answer.json().get("kind").asText(), answer.body());
                acceptedJobs.add(answer.json().get("id").asText());
            } else {
                assertEquals(409, answer.status(), answer.body());
                JsonNode problem = answer.json();
                assertTrue(problem.get("type").asText().endsWith("rebuild-in-progress"), problem.toString());
                namedInRefusals.add(problem.get("detail").asText());
            }
        }
        assertFalse(namedInRefusals.isEmpty(), "rebuilds of " + DOCUMENTS + " documents sent together: the later ones are refused; "
                + acceptedJobs.size() + " accepted");
        for (String detail : namedInRefusals) {
            assertTrue(acceptedJobs.stream().anyMatch(detail::contains), "a refusal names an accepted job: " + detail + " " + acceptedJobs);
        }

        Map<String, Integer> outcomes = new TreeMap<>();
        for (ServerClient.Response answer : answers) {
            if (answer.status() == 202) {
                JsonNode job = FIXTURES.awaitJob(answer.location(), admin, Duration.ofMinutes(5));
                job.get("outcomes").forEach(o -> outcomes.merge(o.get("result").asText() + " " + o.get("status").asInt(), 1, Integer::sum));
            }
        }
        assertEquals(Map.of("stored 201", DOCUMENTS * acceptedJobs.size()), outcomes, "no rebuild failed another's documents");

        ServerClient.Response again = CLIENT.post(base + "/index:rebuild", admin, Map.of());
        assertEquals(202, again.status(), "once the rebuild ended the namespace can be rebuilt again: " + again.body());
        assertEquals("SUCCEEDED", FIXTURES.awaitJob(again.location(), admin, Duration.ofMinutes(5)).get("status").asText());
        assertTrue(CLIENT.get(base + "/index:verify", admin).json().get("consistent").asBoolean());
    }

    private static List<ServerClient.Part> files() {
        List<ServerClient.Part> files = new ArrayList<>();
        for (int f = 0; f < DOCUMENTS; f++) {
            StringBuilder text = new StringBuilder("# Lighthouse " + f + "\n\n");
            for (int s = 0; s < 18; s++) {
                text.append("Lighthouse ").append(f).append(" logs lamp hours, fog signals and keeper shift ").append(s).append(". ");
                if (s % 6 == 5) {
                    text.append("\n\n");
                }
            }
            files.add(new ServerClient.Part("file", "lighthouse-" + f + ".md", "text/markdown", text.toString().getBytes(StandardCharsets.UTF_8)));
        }
        return files;
    }
}
