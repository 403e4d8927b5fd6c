package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

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
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * A burst of uploads into one tenant — forty clients sending a batch of eight files each at the same moment — waits in
 * the tenant's job queue instead of overrunning its plugin guards: every document is stored and the tenant retrieves
 * right after. Before jobs were queued per tenant ({@code TenantJobQueue}), such a burst put eighty documents in flight
 * at once and most of them failed with 503 (the embedder's bulkhead full, then its breaker open).
 */
class IngestBurstIT extends DeployedServer {

    private static final int CLIENTS = 40;
    private static final int FILES_PER_UPLOAD = 8;

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);

    @Test
    void aBurstOfUploadsIsQueuedAndEveryDocumentIsStored() throws Exception {
        String tenant = TenantFixtures.uniqueId("burst");
        FIXTURES.create(tenant, List.of(), false);
        String writer = CLIENT.token("burst", tenant, Roles.READER, Roles.WRITER);
        String documents = "api/v1/tenants/" + tenant + "/documents";

        List<Future<ServerClient.Response>> uploads = new ArrayList<>();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        try {
            for (int c = 0; c < CLIENTS; c++) {
                List<ServerClient.Part> files = files(c);
                uploads.add(clients.submit(() -> CLIENT.postMultipart(documents, writer, files)));
            }
            Map<String, Integer> outcomes = new TreeMap<>();
            List<String> errors = new ArrayList<>();
            for (Future<ServerClient.Response> upload : uploads) {
                ServerClient.Response accepted = upload.get();
                assertEquals(202, accepted.status(), accepted.body());
                JsonNode job = FIXTURES.awaitJob(accepted.location(), writer, Duration.ofMinutes(10));
                job.get("outcomes").forEach(o -> {
                    outcomes.merge(o.get("result").asText() + " " + o.get("status").asInt(), 1, Integer::sum);
                    if (o.hasNonNull("error") && errors.size() < 3) {
                        errors.add(o.get("error").asText());
                    }
                });
            }
            assertEquals(Map.of("stored 201", CLIENTS * FILES_PER_UPLOAD), outcomes, "every document of the burst stored; first errors: " + errors);
        } finally {
            clients.shutdownNow();
        }
        assertEquals(CLIENTS * FILES_PER_UPLOAD, CLIENT.get(documents.replace("/documents", "/stats"), writer).json().get("documents").asInt());
        ServerClient.Response retrieved = CLIENT.post("api/v1/tenants/" + tenant + "/retrieve", writer, Map.of("query", "tide tables of harbour 7"));
        assertEquals(200, retrieved.status(), retrieved.body());
    }

    /** One client's batch: a few paragraphs each, so that every document makes more than one chunk. */
    private static List<ServerClient.Part> files(int client) {
        List<ServerClient.Part> files = new ArrayList<>();
        for (int f = 0; f < FILES_PER_UPLOAD; f++) {
            StringBuilder text = new StringBuilder("# Harbour " + client + " log " + f + "\n\n");
            for (int s = 0; s < 24; s++) {
                text.append("Harbour ").append(client).append(" records tide tables, pilot boardings and berth ").append(s)
                        .append(" for the log of week ").append(f).append(". ");
                if (s % 6 == 5) {
                    text.append("\n\n");
                }
            }
            files.add(new ServerClient.Part("file", "harbour-" + client + "-" + f + ".md", "text/markdown",
                    text.toString().getBytes(StandardCharsets.UTF_8)));
        }
        return files;
    }
}
