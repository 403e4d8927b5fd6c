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
 * runs on every start): it ends either resumed on the new fingerprint or rolled back on the old one — never halfway —
 * and the tenant serves and holds exactly one generation either way.
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
            String before = client.get("admin/v1/tenants/" + tenant, admin).json().get("activeEmbedder").asText();

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
            JsonNode definition = client.get("admin/v1/tenants/" + tenant, admin).json();
            String activeEmbedder = definition.get("activeEmbedder").asText();
            if (job.get("status").asText().equals("SUCCEEDED")) {
                assertEquals(after, activeEmbedder, "resumed: " + job);
                System.out.println("ReembedRestartIT: resumed after the restart; " + job.get("skipped").asInt()
                        + " documents re-embedded before it were skipped");
            } else {
                assertEquals("FAILED", job.get("status").asText(), job.toString());
                assertTrue(job.get("error").asText().contains("rolled back"), job.toString());
                assertEquals(before, activeEmbedder, "rolled back: " + job);
                System.out.println("ReembedRestartIT: rolled back: " + job.get("error").asText());
            }

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
