package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The consistency token over HTTP. A pgvector tenant whose replica is the test database itself (a caught-up stand-in,
 * as in the plugin's ReadReplicaIT; the real streaming replica is cluster-test.sh's): an ingest answers a
 * {@code Corpora-Consistency} token, a retrieve carrying it finds the document, a finished job answers one too, and a
 * token the store could not have issued is a 400 problem. A Lucene tenant (no replicas) answers none and ignores one.
 */
class ReadYourWritesIT extends DeployedServer {

    private static final String TABLE = "it_read_your_writes";

    private final ServerClient client = ServerClient.fromBuild();
    private final String admin = client.token("ops", null, Roles.PLATFORM_ADMIN);

    @Test
    void aReplicaTenantAnswersATokenThatRetrieveHonoursAndALuceneTenantNone() throws Exception {
        String pgUrl = TenantFixtures.pgvectorUrlWithoutTable(TABLE);
        TenantFixtures fixtures = new TenantFixtures(client);
        String replicated = TenantFixtures.uniqueId("ryw");
        Map<String, Object> definition = TenantFixtures.embeddedDefaults(replicated);
        definition.put("store", Map.of("provider", "pgvector", "config", Map.of("jdbcUrl", pgUrl, "replicaJdbcUrls", pgUrl,
                "table", TABLE, "ensureSchema", "true")));
        fixtures.create(definition);
        String api = "api/v1/tenants/" + replicated + "/";
        String writer = client.token("w", replicated, Roles.WRITER);
        String reader = client.token("r", replicated, Roles.READER);

        ServerClient.Response stored = client.post(api + "documents", writer, Map.of("id", "tide", "text", "Spring tides peak at the zyzzyva moon."));
        assertEquals(201, stored.status(), stored.body());
        String token = stored.header(ReadYourWrites.HEADER);
        assertNotNull(token, "an ingest on a store with replicas answers a token");
        assertTrue(token.matches("pg:[0-9A-F]+/[0-9A-F]+"), token);
        JsonNode found = client.post(api + "retrieve", reader, Map.of("query", "zyzzyva", "mode", "keyword"),
                Map.of(ReadYourWrites.HEADER, token)).json();
        assertEquals("tide", found.at("/passages/0/citation/documentId").asText(), found.toString());

        ServerClient.Response foreign = client.post(api + "retrieve", reader, Map.of("query", "zyzzyva", "mode", "keyword"),
                Map.of(ReadYourWrites.HEADER, "lucene:42"));
        assertEquals(400, foreign.status(), foreign.body());
        assertTrue(foreign.contentType().startsWith("application/problem+json"), foreign.contentType());

        ServerClient.Response batch = client.post(api + "documents", writer, List.of(Map.of("id", "ebb", "text", "The ebb runs past the quokka pier.")));
        assertEquals(202, batch.status(), batch.body());
        fixtures.awaitJob(batch.location(), writer);
        ServerClient.Response job = client.get(TenantFixtures.serverPath(batch.location()), writer);
        assertNotNull(job.header(ReadYourWrites.HEADER), "a finished job answers a token: " + job.body());

        String lucene = TenantFixtures.uniqueId("ryw-lucene");
        fixtures.create(lucene, List.of(), false);
        ServerClient.Response plain = client.post("api/v1/tenants/" + lucene + "/documents", client.token("w", lucene, Roles.WRITER),
                Map.of("id", "tide", "text", "Spring tides peak at the zyzzyva moon."));
        assertEquals(201, plain.status(), plain.body());
        assertNull(plain.header(ReadYourWrites.HEADER), "no replicas, no token: every read is consistent");
        assertEquals(200, client.post("api/v1/tenants/" + lucene + "/retrieve", client.token("r", lucene, Roles.READER),
                Map.of("query", "zyzzyva"), Map.of(ReadYourWrites.HEADER, "pg:0/1")).status(), "a store without replicas ignores a token");
    }
}
