package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Deployments;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.testkit.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.IntStream;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Ingest jobs (three running, one queued) and an evaluation running when the application stops. The stop lets the jobs'
 * documents in flight finish, fails the ones not begun ({@code job-interrupted}, each named, nothing of it stored) and
 * ends every job, the queued one included, and fails the evaluation before its next query, saying why — all before the
 * persistence unit closes. So after the restart every job's outcomes add up, every stored document serves and every
 * failed one is absent, the evaluation says the server stopped, and no SEVERE or WARNING line names a job or the
 * evaluation (until 2026-12-07 a running job was logged SEVERE "aborted" and ended PARTIALLY_FAILED with most documents
 * reported nowhere, and the evaluation logged a WARNING and stayed RUNNING until the next server's sweep).
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class CleanStopIT {

    private static final String DEPLOYMENT = "corpora-clean-stop";
    private static final int QUERIES = 2000; // the most one evaluation takes
    private static final int JOBS = 4;
    private static final int DOCUMENTS = 300; // per job: none may finish before the stop

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @ArquillianResource
    Deployer deployer;

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static WebArchive corpora() {
        return Deployments.corporaWar();
    }

    @Test
    void aStopEndsEveryJobWithEveryDocumentAccountedForAndFailsTheEvaluationSayingWhy() throws Exception {
        deployer.deploy(DEPLOYMENT);
        try {
            String tenant = TenantFixtures.uniqueId("jobstop");
            new TenantFixtures(client).create(tenant, List.of(), false);
            String writer = client.token("w", tenant, Roles.WRITER);
            String reader = client.token("r", tenant, Roles.READER);
            String tenantAdmin = client.token("ta", tenant, Roles.TENANT_ADMIN);
            String api = "api/v1/tenants/" + tenant + "/";
            List<String> jobPaths = new ArrayList<>();
            for (int j = 0; j < JOBS; j++) { // one more than a tenant runs at once: the last waits QUEUED
                int job = j;
                List<Map<String, Object>> batch = IntStream.range(0, DOCUMENTS).mapToObj(i -> Map.<String, Object>of("id", "note-" + job + "-" + i,
                        "text", ("Logbook note " + i + ": the lantern on pier " + i + " was trimmed and relit. ").repeat(30))).toList();
                ServerClient.Response submitted = client.post(api + "documents", writer, batch);
                assertEquals(202, submitted.status(), submitted.body());
                jobPaths.add(TenantFixtures.serverPath(submitted.location()));
            }
            Poll.until("the first job stores a document", Duration.ofMinutes(2), () -> client.get(jobPaths.get(0), writer).json().get("succeeded").asInt() > 0);

            Map<String, String> queries = new java.util.LinkedHashMap<>();
            Map<String, Map<String, Integer>> qrels = new java.util.LinkedHashMap<>();
            for (int i = 0; i < QUERIES; i++) {
                queries.put("q" + i, "which lantern on pier " + i + " was relit");
                qrels.put("q" + i, Map.of("note-0-" + (i % DOCUMENTS), 1));
            }
            ServerClient.Response evaluation = client.post(api + "evaluations", tenantAdmin, Map.of("queries", queries, "qrels", qrels,
                    "candidates", List.of(Map.of("mode", "vector"), Map.of("mode", "hybrid"), Map.of("mode", "keyword"))));
            assertEquals(202, evaluation.status(), evaluation.body());
            String evaluationPath = TenantFixtures.serverPath(evaluation.location());
            JsonNode evaluating = Poll.until("the evaluation runs queries", Duration.ofMinutes(1), () -> {
                JsonNode run = client.get(evaluationPath, tenantAdmin).json();
                return run.at("/progress/done").asInt() > 0 || !run.get("status").asText().matches("QUEUED|RUNNING") ? Optional.of(run) : Optional.empty();
            });
            assertEquals("RUNNING", evaluating.get("status").asText(), "the evaluation must still run when the application stops");
            List<String> before = jobPaths.stream().map(path -> client.get(path, writer).json().get("status").asText()).toList();
            assertEquals(List.of("RUNNING", "RUNNING", "RUNNING", "QUEUED"), before, "three jobs must run and one wait when the application stops");

            deployer.undeploy(DEPLOYMENT);
            deployer.deploy(DEPLOYMENT);

            List<String> stored = new ArrayList<>();
            List<String> interrupted = new ArrayList<>();
            List<String> jobIds = new ArrayList<>();
            for (String path : jobPaths) {
                JsonNode job = client.get(path, writer).json();
                jobIds.add(job.get("id").asText());
                assertTrue(TenantFixtures.finished(job), "the stopping server ended the job itself: " + job);
                assertEquals(DOCUMENTS, job.get("succeeded").asInt() + job.get("skipped").asInt() + job.get("failed").asInt(), job.toString());
                assertEquals(DOCUMENTS, job.get("outcomes").size(), "one outcome per document: " + job);
                for (JsonNode outcome : job.get("outcomes")) {
                    if ("failed".equals(outcome.get("result").asText())) {
                        assertEquals("https://corpora.dev/problems/job-interrupted", outcome.get("type").asText(), outcome.toString());
                        assertTrue(outcome.get("error").asText().contains("this server stopped before the document was begun"), outcome.toString());
                        interrupted.add(outcome.get("documentId").asText());
                    } else {
                        stored.add(outcome.get("documentId").asText());
                    }
                }
            }
            JsonNode queued = client.get(jobPaths.get(JOBS - 1), writer).json();
            assertEquals(DOCUMENTS, queued.get("failed").asInt(), "the queued job stored nothing: " + queued);
            assertEquals("FAILED", queued.get("status").asText(), queued.toString());
            assertEquals(JOBS * DOCUMENTS, stored.size() + interrupted.size(), "every document named once");
            assertFalse(stored.isEmpty());
            assertEquals(stored.size(), client.get(api + "stats", reader).json().get("documents").asInt(), "exactly the stored ones are there");
            assertEquals(200, client.get(api + "document?id=" + stored.get(stored.size() - 1), reader).status());
            assertEquals(404, client.get(api + "document?id=" + interrupted.get(0), reader).status(), "nothing of an interrupted one");
            JsonNode verify = client.get(api + "index:verify", writer).json();
            assertTrue(verify.get("consistent").asBoolean(), verify.toString());

            JsonNode evaluated = client.get(evaluationPath, tenantAdmin).json();
            assertEquals("FAILED", evaluated.get("status").asText(), evaluated.toString());
            assertEquals("this server stopped while the evaluation ran; start the evaluation again", evaluated.get("error").asText());

            List<String> named = new ArrayList<>(jobIds);
            named.add(evaluated.get("id").asText());
            List<String> alarms = MessagesLog.jsonRecords().map(r -> r.path("loglevel").asText() + " " + r.path("message").asText())
                    .filter(r -> named.stream().anyMatch(r::contains) && (r.startsWith("SEVERE") || r.startsWith("WARNING") || r.contains("aborted")))
                    .toList();
            assertEquals(List.of(), alarms);
            System.out.println("CleanStopIT: " + stored.size() + " documents stored before the stop, " + interrupted.size()
                    + " failed as interrupted; the evaluation had run " + evaluating.at("/progress/done").asInt() + " retrievals when it began");
        } finally {
            deployer.undeploy(DEPLOYMENT);
        }
    }
}
