package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.cli.ServerTask;
import io.corpora.cli.ingest.IngestCommand;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code corpora ingest} against the real server: a folder tree, a failing file, resume, then success. */
class IngestCommandIT extends DeployedServer {

    private final ServerClient client = ServerClient.fromBuild();

    @TempDir
    Path folder;

    @Test
    void uploadsATreeListsFailuresAndResumes() throws Exception {
        String tenant = TenantFixtures.uniqueId("bulk");
        new TenantFixtures(client).create(tenant, List.of(), false);
        Files.createDirectories(folder.resolve("guides/travel"));
        Files.writeString(folder.resolve("guides/travel/readme.md"), "# Trains\n\nSleeper trains leave at nine.\n");
        Files.writeString(folder.resolve("notes.txt"), "The canteen serves soup on Mondays.");
        Files.writeString(folder.resolve("broken.json"), "{\"items\": [1, 2");
        Files.writeString(folder.resolve(".hidden.txt"), "never uploaded");
        Path state = folder.getParent().resolve("ingest-state-" + tenant + ".tsv"); // outside the uploaded tree, unique per run

        Run first = run(tenant, state);
        assertEquals(1, first.exitCode(), first.toString());
        assertTrue(first.err().contains("broken.json: 422 unreadable-document "), first.err());
        assertTrue(first.out().contains("2 stored"), first.out());

        Run resumed = run(tenant, state);
        assertEquals(1, resumed.exitCode(), resumed.toString());
        assertTrue(resumed.out().contains("2 already stored"), resumed.out());

        Files.writeString(folder.resolve("broken.json"), "{\"items\": [{\"name\": \"kettle\", \"room\": \"kitchen\"}]}");
        Run fixed = run(tenant, state);
        assertEquals(0, fixed.exitCode(), fixed.toString());
        assertTrue(fixed.out().contains("1 stored"), fixed.out());

        String reader = client.token("reader", tenant, Roles.READER);
        var found = client.post("api/v1/tenants/" + tenant + "/retrieve", reader, Map.of("query", "sleeper trains", "mode", "keyword")).json();
        assertEquals("guides/travel/readme.md", found.get("passages").get(0).get("citation").get("documentId").asText());
        assertEquals(404, client.get("api/v1/tenants/" + tenant + "/documents/.hidden.txt", reader).status());
    }

    /** What `corpora ingest` reports for a batch whose job cannot be followed: the server's problem, never a stack trace. */
    @Test
    void aJobTheServerDoesNotKnowFailsToBeFollowedWithTheServersProblem() {
        String tenant = TenantFixtures.uniqueId("follow");
        new TenantFixtures(client).create(tenant, List.of(), false);
        URI job = client.resolve("api/v1/tenants/" + tenant + "/jobs/no-such-job");
        ServerTask.Failure failure = assertThrows(ServerTask.Failure.class, () -> ServerTask.longPolled(HttpClient.newHttpClient(), job)
                .follow(client.token("reader", tenant, Roles.READER), Duration.ofMinutes(1), state -> {}));
        assertTrue(failure.getMessage().contains("404 Job not found: no job 'no-such-job' for this tenant"), failure.getMessage());
    }

    private record Run(int exitCode, String out, String err) {}

    private Run run(String tenant, Path state) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String token = client.token("bulk-loader", tenant, Roles.WRITER);
        int code = new IngestCommand().run(List.of(folder.toString(), "--tenant", tenant, "--server", client.resolve("").toString(),
                        "--token", token, "--batch", "2", "--state", state.toString()),
                new PrintStream(out, true, StandardCharsets.UTF_8), new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Run(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }
}
