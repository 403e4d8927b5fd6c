package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.server.DeployedServer;
import io.corpora.testkit.LocalHttpsServer;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code POST documents} with {@code {url}} over HTTP: every refusal is problem+json naming the reason, and a document
 * on an allowed origin is fetched by the server from a real local HTTPS server (whose trust store arquillian.xml points
 * the server at), stored and retrievable.
 */
class UrlIngestIT extends DeployedServer {

    private static final ServerClient CLIENT = ServerClient.fromBuild();
    private static final TenantFixtures FIXTURES = new TenantFixtures(CLIENT);
    private static final String T = TenantFixtures.uniqueId("url");
    private static final String PUBLIC_ONLY = TenantFixtures.uniqueId("url-public");
    private static final AtomicInteger REDIRECT_TARGET_HITS = new AtomicInteger();
    private static final String GUIDE = "# Beekeeping\n\nA hive needs a queen, workers and drones.\n\nSmoke calms the bees before the hive is opened.\n";

    private static LocalHttpsServer docs;

    @BeforeAll
    static void serveDocumentsAndCreateTenants() throws Exception {
        Path work = Files.createTempDirectory("url-ingest-it");
        docs = new LocalHttpsServer(work)
                .handle("/guides/bees.md", LocalHttpsServer.content("text/markdown; charset=utf-8", GUIDE.getBytes(StandardCharsets.UTF_8)))
                .handle("/moved", exchange -> {
                    exchange.getResponseHeaders().set("Location", docs.origin() + "/target");
                    exchange.sendResponseHeaders(301, -1);
                    exchange.close();
                })
                .handle("/target", exchange -> {
                    REDIRECT_TARGET_HITS.incrementAndGet();
                    LocalHttpsServer.content("text/plain", GUIDE.getBytes(StandardCharsets.UTF_8)).handle(exchange);
                })
                .handle("/huge.txt", exchange -> {
                    exchange.getResponseHeaders().set("Content-Type", "text/plain");
                    exchange.sendResponseHeaders(200, 64L * 1024 * 1024); // more than the server's 10 MiB default
                    try (OutputStream out = exchange.getResponseBody()) {
                        for (int i = 0; i < 64 * 16; i++) {
                            out.write(new byte[64 * 1024]);
                        }
                    } catch (IOException refused) {
                        // the server hangs up once it sees the Content-Length
                    }
                });
        // The server reads this trust store at its first URL ingest (arquillian.xml: corpora.ingest.url.trustStore).
        docs.writeTrustStore(Path.of(System.getProperty("corpora.it.url.trustStore", "target/it-url-ingest-truststore.p12")));

        Map<String, Object> tenant = TenantFixtures.embeddedDefaults(T);
        tenant.put("ingest", Map.of("allowedOrigins", List.of("https://docs.example.com"), "privateOrigins", List.of(docs.origin())));
        FIXTURES.create(tenant);
        Map<String, Object> publicOnly = TenantFixtures.embeddedDefaults(PUBLIC_ONLY);
        publicOnly.put("ingest", Map.of("allowedOrigins", List.of(docs.origin())));
        FIXTURES.create(publicOnly);
    }

    @AfterAll
    static void stop() {
        docs.close();
    }

    private static ServerClient.Response ingestUrl(String tenant, String url) {
        return CLIENT.post("api/v1/tenants/" + tenant + "/documents", CLIENT.token("writer", tenant, Roles.WRITER), Map.of("url", url));
    }

    private static JsonNode problem(ServerClient.Response response, int status, String typeSuffix) {
        assertEquals(status, response.status(), response.body());
        assertTrue(response.contentType().startsWith("application/problem+json"), response.contentType());
        JsonNode problem = response.json();
        assertTrue(problem.get("type").asText().endsWith(typeSuffix), problem.toString());
        assertEquals(status, problem.get("status").asInt());
        assertTrue(problem.hasNonNull("title") && problem.hasNonNull("detail"), problem.toString());
        return problem;
    }

    @Test
    void aDocumentOnAnAllowedOriginIsFetchedStoredAndRetrievable() {
        String url = docs.origin() + "/guides/bees.md";
        ServerClient.Response created = ingestUrl(T, url);
        assertEquals(201, created.status(), created.body());
        assertEquals("localhost/guides/bees.md", created.json().get("documentId").asText());

        ServerClient.Response again = ingestUrl(T, url);
        assertEquals(200, again.status(), again.body());
        assertTrue(again.json().get("skipped").asBoolean(), again.body());

        JsonNode document = CLIENT.get("api/v1/tenants/" + T + "/documents?source=" + java.net.URLEncoder.encode(url, StandardCharsets.UTF_8),
                CLIENT.token("reader", T, Roles.READER)).json().get("documents").get(0);
        assertEquals("localhost/guides/bees.md", document.get("id").asText(), document.toString());
        assertEquals(url, document.get("source").asText(), document.toString());
        assertEquals("text/markdown", document.get("mediaType").asText(), document.toString());

        JsonNode hits = CLIENT.post("api/v1/tenants/" + T + "/retrieve", CLIENT.token("reader", T, Roles.READER),
                Map.of("query", "smoke calms bees", "mode", "keyword")).json();
        JsonNode top = hits.get("passages").get(0);
        assertTrue(top.get("text").asText().contains("Smoke calms the bees"), hits.toString());
        assertEquals("Beekeeping", top.get("citation").get("headingPath").get(0).asText(), top.toString());
    }

    @Test
    void onlyHttpsWithoutUserInfoIsFetched() {
        JsonNode http = problem(ingestUrl(T, "http://docs.example.com/guide.md"), 400, "invalid-url");
        assertTrue(http.get("detail").asText().contains("https"), http.toString());
        JsonNode userInfo = problem(ingestUrl(T, "https://alice:s3cret@docs.example.com/guide.md"), 400, "invalid-url");
        assertTrue(!userInfo.toString().contains("s3cret"), "credentials must not be echoed: " + userInfo);
    }

    @Test
    void anOriginNotListedIsForbidden() {
        JsonNode other = problem(ingestUrl(T, "https://docs.example.com.attacker.net/guide.md"), 403, "origin-not-allowed");
        assertTrue(other.get("detail").asText().contains("https://docs.example.com.attacker.net"), other.toString());
        problem(ingestUrl(T, "https://docs.example.com:8443/guide.md"), 403, "origin-not-allowed");
    }

    @Test
    void anAllowedOriginResolvingToLoopbackIsForbiddenUnlessListedAsPrivate() {
        JsonNode loopback = problem(ingestUrl(PUBLIC_ONLY, docs.origin() + "/guides/bees.md"), 403, "origin-not-allowed");
        assertTrue(loopback.get("detail").asText().contains("127.0.0.1"), loopback.toString());
    }

    @Test
    void aRedirectIsRefusedNamingItsLocationAndNotFollowed() {
        JsonNode redirect = problem(ingestUrl(T, docs.origin() + "/moved"), 422, "url-redirected");
        assertTrue(redirect.get("detail").asText().contains(docs.origin() + "/target"), redirect.toString());
        assertEquals(0, REDIRECT_TARGET_HITS.get());
    }

    @Test
    void aDocumentOverTheByteLimitIsRefused() {
        JsonNode tooLarge = problem(ingestUrl(T, docs.origin() + "/huge.txt"), 413, "document-too-large");
        assertTrue(tooLarge.get("detail").asText().contains("10485760"), tooLarge.toString());
    }

    @Test
    void aBatchMayNotHoldUrlsAndATenantWithoutOriginsFetchesNothing() {
        ServerClient.Response batch = CLIENT.post("api/v1/tenants/" + T + "/documents", CLIENT.token("writer", T, Roles.WRITER),
                List.of(Map.of("url", docs.origin() + "/guides/bees.md")));
        problem(batch, 400, "invalid-request");

        String none = TenantFixtures.uniqueId("url-none");
        FIXTURES.create(none, List.of(), false);
        problem(ingestUrl(none, docs.origin() + "/guides/bees.md"), 403, "origin-not-allowed");
    }
}
