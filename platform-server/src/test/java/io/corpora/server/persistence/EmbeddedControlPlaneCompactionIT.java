package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.server.api.TenantFixtures;
import io.corpora.testkit.server.KillableLibertyServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A real server on the embedded control plane: while it runs, every commit leaves chunks in H2's file; the application's
 * stop releases the server's lease and then compacts the file to what the data needs ({@link EmbeddedControlPlaneCompaction}).
 * A redeploy inside the running server then starts on fresh connections, and so does the next start of the server.
 */
class EmbeddedControlPlaneCompactionIT {

    private static final int DOCUMENTS = 120;

    private static KillableLibertyServer server;
    private static Path data;

    @BeforeAll
    static void startServer() throws Exception {
        Path target = Path.of(System.getProperty("corpora.war", "target/corpora.war")).toAbsolutePath().getParent();
        data = target.resolve("compaction-it-data");
        server = KillableLibertyServer.create("compaction-it", Integer.getInteger("corpora.crash.http.port", 19283), data,
                target.resolve("compaction-it-logs"), List.of(KillableLibertyServer.DEVELOPMENT_MODE));
        server.start();
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theApplicationsStopCompactsTheFileAndARedeployAndTheNextServerStartServeEveryDocument() throws Exception {
        ServerClient client = new ServerClient(server.baseUri(), ServerClient.devPrivateKey());
        String tenant = TenantFixtures.uniqueId("compact");
        new TenantFixtures(client).create(tenant, List.of(), false);
        String writer = client.token("writer", tenant, Roles.WRITER, Roles.READER);
        for (int i = 0; i < DOCUMENTS; i++) {
            store(client, tenant, writer, i);
        }
        Path file = data.resolve("control-plane.mv.db");
        long running = Files.size(file);

        // A redeploy: the application stops (and compacts) inside a running server, whose connection pool outlives it.
        assertTrue(server.restartApplication(), "the application starts again after its stop compacted the database; see " + server.messagesLog());
        long redeployed = Files.size(file);
        assertTrue(redeployed * 2 < running, "the application's stop compacts the file: " + running + " bytes while running, " + redeployed + " after");
        assertEquals(1, compactions(), "the stop says so; see " + server.messagesLog());
        assertServes(client, tenant, writer, DOCUMENTS);
        store(client, tenant, writer, DOCUMENTS); // and writes again, on connections to the reopened database

        server.stop();
        assertEquals(2, compactions(), "the server's stop compacts too; see " + server.messagesLog());
        List<KillableLibertyServer.LogMessage> stopLog = server.logMessages();
        assertTrue(stopLog.stream().noneMatch(m -> m.text().startsWith("could not release the lease")),
                "the lease is released before the persistence unit closes; see " + server.messagesLog());
        assertTrue(stopLog.stream().noneMatch(m -> m.text().startsWith("No connection pool") || m.text().startsWith("Could not empty")),
                "the server's pool of the closed database was emptied; see " + server.messagesLog());

        server.start();
        assertTrue(server.logMessages().stream().noneMatch(m -> m.text().contains("predecessor lease")),
                "the restart finds no lease of its predecessor to end: the stop released it; see " + server.messagesLog());
        assertServes(client, tenant, writer, DOCUMENTS + 1);
    }

    private static void store(ServerClient client, String tenant, String writer, int i) throws Exception {
        ServerClient.Response stored = client.post("api/v1/tenants/" + tenant + "/documents", writer,
                Map.of("id", "note-" + i, "text", "Field note " + i + ": the heron waited in the reeds for " + i + " minutes before it struck."));
        assertEquals(201, stored.status(), stored.body());
    }

    private static void assertServes(ServerClient client, String tenant, String reader, int documents) throws Exception {
        JsonNode stats = client.get("api/v1/tenants/" + tenant + "/stats", reader).json();
        assertEquals(documents, stats.get("documents").asInt(), stats.toString());
        JsonNode found = client.post("api/v1/tenants/" + tenant + "/retrieve", reader, Map.of("query", "heron waited 77 minutes", "mode", "keyword")).json();
        assertTrue(found.toString().contains("note-77"), found.toString());
    }

    private static long compactions() {
        return server.logMessages().stream().filter(m -> m.text().startsWith("Embedded control plane compacted at stop")).count();
    }
}
