package io.corpora.server.crash;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import io.corpora.server.api.TenantFixtures;
import io.corpora.testkit.server.KillableLibertyServer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The document-embedding cache in a real server ({@code corpora.ingest.embeddingCache.dir}): the first ingest embeds
 * every chunk with the model; a rebuild of the same texts, even after the server's JVM was killed and restarted, reads
 * every vector from disk (the server's metrics count it) and retrieval ranks exactly as before.
 */
class DocumentEmbeddingCacheIT {

    private static final String TEXT = String.join("\n\n", List.of(
            "Beavers build dams of branches and mud; a large dam can flood a whole valley and change the course of a river.",
            "Otters eat fish and crayfish, and they use stones to open shellfish while floating on their backs in the water.",
            "Herons stand still in shallow water for minutes at a time before they strike at a passing fish with their beaks.",
            "Kingfishers dive from a perch above the river and come back with small fish, which they beat against a branch."));

    private static KillableLibertyServer server;
    private static ServerClient client;
    private static String tenant;

    @BeforeAll
    static void startServerWithTheCache() throws Exception {
        Path target = Path.of(System.getProperty("corpora.war", "target/corpora.war")).toAbsolutePath().getParent();
        server = KillableLibertyServer.create("cache-it", Integer.getInteger("corpora.crash.http.port", 19283), target.resolve("cache-it-data"),
                target.resolve("cache-it-logs"), List.of(KillableLibertyServer.DEVELOPMENT_MODE,
                        "-Dcorpora.ingest.embeddingCache.dir=" + target.resolve("cache-it-data").resolve("embedding-cache")));
        server.start();
        client = new ServerClient(server.baseUri(), ServerClient.devPrivateKey());
        tenant = TenantFixtures.uniqueId("cache");
        new TenantFixtures(client).create(tenant, List.of(), false);
    }

    @AfterAll
    static void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void aRebuildAfterARestartReadsEveryChunkVectorFromTheCacheAndRanksAsBefore() throws Exception {
        ServerClient.Response stored = client.post("api/v1/tenants/" + tenant + "/documents", client.token("writer", tenant, Roles.WRITER),
                Map.of("id", "rivers", "text", TEXT, "source", "rivers.txt"));
        assertEquals(201, stored.status(), stored.body());
        int chunks = stored.json().get("chunks").asInt();
        assertTrue(chunks >= 1, stored.body());
        assertEquals(0, gauge("hits"));
        assertEquals(chunks, gauge("misses"), "the first ingest embeds every chunk with the model");
        List<String> before = ranking("which animal floods a valley");

        server.killJvm(); // no clean close of the cache files: what was written must be read back whole
        server.start();
        rebuild();
        assertEquals(chunks, gauge("hits"), "the rebuild after the restart read every chunk's vector from disk");
        assertEquals(0, gauge("misses"));
        assertEquals(before, ranking("which animal floods a valley"), "the cached vectors are the model's: same passages, same scores");
    }

    private static void rebuild() {
        String admin = client.token("admin", tenant, Roles.TENANT_ADMIN);
        ServerClient.Response accepted = client.post("api/v1/tenants/" + tenant + "/index:rebuild", admin, Map.of());
        assertEquals(202, accepted.status(), accepted.body());
        JsonNode job = new TenantFixtures(client).awaitJob(accepted.location(), admin);
        assertEquals("SUCCEEDED", job.get("status").asText(), job.toString());
    }

    /** Passage ids with their vector scores (vector mode, so the ranking is the vectors' alone). */
    private static List<String> ranking(String query) {
        ServerClient.Response response = client.post("api/v1/tenants/" + tenant + "/retrieve", client.token("reader", tenant, Roles.READER),
                Map.of("query", query, "mode", "vector", "topK", 10));
        assertEquals(200, response.status(), response.body());
        List<String> ranking = new ArrayList<>();
        response.json().get("passages").forEach(p -> ranking.add(p.get("text").asText() + " " + p.get("score").asDouble()));
        assertTrue(!ranking.isEmpty(), response.body());
        return ranking;
    }

    private static long gauge(String name) {
        String metric = ("corpora_ingest_embeddingCache_" + name).toLowerCase(java.util.Locale.ROOT);
        for (String line : client.get("metrics", null).body().split("\n")) {
            String lower = line.toLowerCase(java.util.Locale.ROOT);
            if (lower.startsWith(metric + "{") || lower.startsWith(metric + " ")) {
                return Math.round(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        throw new AssertionError("no " + metric + " at /metrics");
    }
}
