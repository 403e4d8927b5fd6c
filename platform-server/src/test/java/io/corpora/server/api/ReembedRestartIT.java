package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Deployments;
import io.corpora.testkit.Poll;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jboss.arquillian.container.test.api.Deployer;
import org.jboss.arquillian.container.test.api.Deployment;
import org.jboss.arquillian.container.test.api.RunAsClient;
import org.jboss.arquillian.junit5.ArquillianExtension;
import org.jboss.arquillian.test.api.ArquillianResource;
import org.jboss.shrinkwrap.api.spec.WebArchive;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * A re-embed migration interrupted by stopping the application mid-way, then starting it again (the boot-time recovery
 * runs on every start). The stop ends the run at a step boundary with its job open — no rollback, nothing left broken by
 * the closing persistence unit, no FFDC report — and the restart resumes it (the default policy), skipping the
 * documents re-embedded before the stop; the tenant serves and holds exactly one generation.
 */
@ExtendWith(ArquillianExtension.class)
@RunAsClient
class ReembedRestartIT {

    private static final String DEPLOYMENT = "corpora-restart";

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @ArquillianResource
    Deployer deployer;

    @TempDir
    Path models;

    @Deployment(name = DEPLOYMENT, managed = false, testable = false)
    static WebArchive corpora() {
        return Deployments.corporaWar();
    }

    @Test
    void anInterruptedMigrationEndsResumedOrRolledBackNeverHalfway() throws Exception {
        deployer.deploy(DEPLOYMENT);
        try {
            String tenant = TenantFixtures.uniqueId("restart");
            TenantFixtures fixtures = new TenantFixtures(client);
            fixtures.create(tenant, List.of(), false);
            String writer = client.token("w", tenant, Roles.WRITER);
            String reader = client.token("r", tenant, Roles.READER);
            LogbookCorpus.ingest(client, fixtures, tenant, writer, null, 24);

            ServerClient.Response started = client.post("admin/v1/tenants/" + tenant + "/embedder:migrate", admin,
                    Map.of("embedder", OtherOnnxEmbedder.meanPooledBge(models)));
            assertEquals(202, started.status(), started.body());
            String jobPath = TenantFixtures.serverPath(started.location());
            String after = started.json().at("/reembed/to").asText();
            JsonNode job = awaitProgress(jobPath);
            assertEquals("RUNNING", job.get("status").asText(), "the migration must still run when the application stops: " + job);

            deployer.undeploy(DEPLOYMENT);
            deployer.deploy(DEPLOYMENT);

            job = new TenantFixtures(client).awaitJob(jobPath, admin, Duration.ofMinutes(4));
            String jobId = job.get("id").asText();
            String activeEmbedder = client.get("admin/v1/tenants/" + tenant, admin).json().get("activeEmbedder").asText();
            assertEquals("SUCCEEDED", job.get("status").asText(), "resumed, not rolled back: " + job);
            assertEquals(after, activeEmbedder, "resumed: " + job);
            assertTrue(job.get("skipped").asInt() > 0, "the documents re-embedded before the stop are skipped: " + job);
            List<String> migrationRecords = MessagesLog.jsonRecords().filter(r -> r.path("message").asText().contains(jobId))
                    .map(r -> r.path("loglevel").asText() + " " + r.path("message").asText()).toList();
            assertTrue(migrationRecords.stream().anyMatch(r -> r.contains("stopped with the server")), String.join("\n", migrationRecords));
            assertTrue(migrationRecords.stream().noneMatch(r -> r.startsWith("SEVERE") || r.contains("could not be closed")
                    || r.contains("rolled back") || r.contains(" failed")), String.join("\n", migrationRecords));
            assertTrue(MessagesLog.incidentReports().stream().noneMatch(r -> r.contains("io.corpora.ingest.CorpusMigration")),
                    "no FFDC report from a migration thread");
            System.out.println("ReembedRestartIT: resumed after the restart; " + job.get("skipped").asInt()
                    + " documents re-embedded before it were skipped");

            String api = "api/v1/tenants/" + tenant + "/";
            JsonNode verify = client.get(api + "index:verify", writer).json();
            assertTrue(verify.get("consistent").asBoolean(), verify.toString());
            assertEquals(client.get(api + "stats", reader).json().get("chunks").asLong(), verify.get("chunks").asLong(),
                    "exactly one generation is stored");
            ServerClient.Response answer = client.post(api + "retrieve", reader, Map.of("query", LogbookCorpus.QUERY));
            assertEquals(200, answer.status(), answer.body());
            assertFalse(answer.json().get("passages").isEmpty());
            assertEquals(activeEmbedder, answer.json().at("/diagnostics/embedder").asText());
            assertEquals(201, client.post(api + "documents", writer, Map.of("id", "late", "text", "A late lantern note.")).status(),
                    "writes are open again");
        } finally {
            deployer.undeploy(DEPLOYMENT);
        }
    }

    /** Waits until the migration has re-embedded at least one document (or ended). */
    private JsonNode awaitProgress(String jobPath) {
        return Poll.until("the migration re-embeds a document", Duration.ofMinutes(2), () -> {
            JsonNode job = client.get(jobPath, admin).json();
            return job.get("succeeded").asInt() > 0 || TenantFixtures.finished(job) ? Optional.of(job) : Optional.empty();
        });
    }
}
