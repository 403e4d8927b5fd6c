package io.corpora.rerank.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HttpRerankerTest {

    private static final String API_KEY = "sk-test-4f9a";
    private static final String QUERY = "cat dog";
    private static final List<String> TEXTS = List.of("the cat sat", "dogs bark loudly", "a cat and a dog");
    private static final double[] EXPECTED = {0.5, 0.0, 1.0};

    private FakeRerankService service;
    private final CountDownLatch releaseSlowHandlers = new CountDownLatch(1);

    @BeforeEach
    void start() throws IOException {
        service = new FakeRerankService();
    }

    @AfterEach
    void stop() {
        releaseSlowHandlers.countDown();
        service.close();
    }

    private static RerankerProvider provider() {
        return ServiceLoader.load(RerankerProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("http")).findFirst().orElseThrow();
    }

    private static Reranker create(Map<String, String> options) {
        RerankerProvider provider = provider();
        return provider.create(PluginContext.of(Path.of("target"), "test"),
                PluginConfig.validate("http", provider.configOptions(), options));
    }

    private Reranker cohere(Map<String, String> extra) {
        Map<String, String> options = new HashMap<>(Map.of("format", "cohere", "model", "rerank-test",
                "endpoint", service.uri("/v2/rerank").toString(), "apiKey", API_KEY));
        options.putAll(extra);
        return create(options);
    }

    private RerankException failure(Reranker reranker) {
        return assertThrows(RerankException.class, () -> reranker.score(QUERY, TEXTS));
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"cohere, /v2/rerank", "jina, /jina/v1/rerank", "voyage, /v1/rerank", "tei, /rerank"})
    void eachFormatReturnsScoresInInputOrderFromABestFirstResponse(String format, String path) {
        Map<String, String> options = new HashMap<>(Map.of("format", format, "endpoint", service.uri(path).toString(),
                "apiKey", API_KEY));
        if (!format.equals("tei")) {
            options.put("model", "rerank-test");
        }
        assertArrayEquals(EXPECTED, create(options).score(QUERY, TEXTS));

        assertEquals(1, service.requests.size());
        FakeRerankService.Received request = service.requests.get(0);
        assertEquals(path, request.path());
        assertEquals("Bearer " + API_KEY, request.authorization());
        JsonNode body = request.body();
        assertEquals(QUERY, body.path("query").asText());
        String textsField = format.equals("tei") ? "texts" : "documents";
        assertEquals(TEXTS.size(), body.path(textsField).size());
        assertEquals(TEXTS.get(2), body.path(textsField).get(2).asText());
        switch (format) {
            case "cohere" -> assertEquals(3, body.path("top_n").asInt());
            case "jina" -> assertFalse(body.path("return_documents").asBoolean(true));
            case "voyage" -> assertTrue(body.path("top_n").isMissingNode());
            default -> assertTrue(body.path("model").isMissingNode(), "TEI serves one model; none is sent");
        }
        if (!format.equals("tei")) {
            assertEquals("rerank-test", body.path("model").asText());
        }
    }

    @Test
    void manyTextsAreSentInBatchesAndRealigned() {
        List<String> texts = List.of("cat", "nothing", "dog cat", "dog", "none at all");
        double[] scores = cohere(Map.of("batchSize", "2")).score(QUERY, texts);
        assertArrayEquals(new double[] {0.5, 0.0, 1.0, 0.5, 0.0}, scores);
        assertEquals(List.of(2, 2, 1), service.requests.stream().map(r -> r.body().path("documents").size()).toList());
    }

    @Test
    void oneInstanceServesConcurrentCallers() throws Exception {
        Reranker reranker = cohere(Map.of());
        ExecutorService callers = Executors.newFixedThreadPool(8);
        try {
            List<Future<double[]>> results = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                List<String> texts = List.of("cat " + i, "dog " + i, "cat dog " + i, "none " + i);
                results.add(callers.submit(() -> reranker.score(QUERY, texts)));
            }
            for (Future<double[]> result : results) {
                assertArrayEquals(new double[] {0.5, 0.5, 1.0, 0.0}, result.get(30, TimeUnit.SECONDS));
            }
        } finally {
            callers.shutdownNow();
        }
        assertEquals(32, service.requests.size());
    }

    @Test
    void noTextsMeansNoRequest() {
        assertEquals(0, cohere(Map.of()).score(QUERY, List.of()).length);
        assertTrue(service.requests.isEmpty());
    }

    @Test
    void withoutApiKeyNoAuthorizationHeaderIsSent() {
        create(Map.of("format", "tei", "endpoint", service.uri("/rerank").toString())).score(QUERY, TEXTS);
        assertEquals(null, service.requests.get(0).authorization());
    }

    @Test
    void errorStatusNamesTheEndpointStatusAndBodyButNeverTheKey() {
        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 401, "{\"message\":\"invalid api token\"}"));
        RerankException e = failure(cohere(Map.of()));
        assertEquals("rerank endpoint " + service.uri("/v2/rerank") + " answered HTTP 401 (check the 'apiKey' option): "
                + "{\"message\":\"invalid api token\"}", e.getMessage());
        assertFalse(e.getMessage().contains(API_KEY));
    }

    @Test
    void serverErrorAndRateLimitAreReported() {
        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 503, ""));
        assertTrue(failure(cohere(Map.of())).getMessage().endsWith("answered HTTP 503: (empty body)"));
        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 429, "{\"message\":\"slow down\"}"));
        assertTrue(failure(cohere(Map.of())).getMessage().contains("HTTP 429 (rate limited by the service)"));
    }

    @Test
    void redirectsAreNeverFollowed() {
        service.route("/v2/rerank", exchange -> {
            exchange.getResponseHeaders().set("Location", service.uri("/elsewhere").toString());
            FakeRerankService.respond(exchange, 302, "");
        });
        service.route("/elsewhere", exchange -> FakeRerankService.respond(exchange, 200, "[]"));
        RerankException e = failure(cohere(Map.of()));
        assertTrue(e.getMessage().contains("answered HTTP 302 redirecting to " + service.uri("/elsewhere")
                + "; redirects are not followed"), e.getMessage());
        assertEquals(List.of("/v2/rerank"), service.requests.stream().map(FakeRerankService.Received::path).toList());
    }

    @Test
    void slowEndpointFailsAtTheTimeout() {
        service.route("/v2/rerank", exchange -> {
            try {
                releaseSlowHandlers.await(30, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            FakeRerankService.respond(exchange, 200, "{\"results\":[]}");
        });
        long start = System.nanoTime();
        RerankException e = failure(cohere(Map.of("timeout", "300ms")));
        Duration elapsed = Duration.ofNanos(System.nanoTime() - start);
        assertTrue(e.getMessage().endsWith("did not answer within 300 ms (option 'timeout')"), e.getMessage());
        assertTrue(elapsed.compareTo(Duration.ofSeconds(5)) < 0, "gave up after " + elapsed);
    }

    @Test
    void oversizeResponseIsRefused() {
        String huge = "{\"results\":[], \"padding\":\"" + "x".repeat(2 * 1024 * 1024) + "\"}";
        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 200, huge));
        RerankException e = failure(cohere(Map.of("maxResponseBytes", "4096")));
        assertTrue(e.getMessage().endsWith("is larger than 4096 bytes (option 'maxResponseBytes')"), e.getMessage());
    }

    @Test
    void incompleteOrInconsistentResultsAreErrorsNotWrongRankings() {
        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 200,
                "{\"results\":[{\"index\":2,\"relevance_score\":0.9},{\"index\":0,\"relevance_score\":0.1}]}"));
        assertTrue(failure(cohere(Map.of())).getMessage().endsWith("scored 2 of 3 documents (document 1 has no score)"));

        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 200,
                "{\"results\":[{\"index\":0,\"relevance_score\":0.9},{\"index\":0,\"relevance_score\":0.1}]}"));
        assertTrue(failure(cohere(Map.of())).getMessage().endsWith("scored document 0 twice"));

        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 200,
                "{\"results\":[{\"index\":7,\"relevance_score\":0.9}]}"));
        assertTrue(failure(cohere(Map.of())).getMessage().endsWith("scored document 7, but only 3 were sent"));

        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 200,
                "{\"results\":[{\"index\":0,\"relevance_score\":\"high\"}]}"));
        assertTrue(failure(cohere(Map.of())).getMessage().endsWith("has no finite 'relevance_score' for document 0"));
    }

    @Test
    void responseInAnotherShapeOrNotJsonIsReported() {
        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 200, "[{\"index\":0,\"score\":1}]"));
        assertTrue(failure(cohere(Map.of())).getMessage().endsWith("is not in the cohere format: expected an array field 'results'"));
        service.route("/v2/rerank", exchange -> FakeRerankService.respond(exchange, 200, "<html>gateway</html>"));
        assertTrue(failure(cohere(Map.of())).getMessage().contains("is not JSON: <html>gateway</html>"));
    }

    @Test
    void unreachableEndpointIsReported() throws IOException {
        int closedPort;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            closedPort = socket.getLocalPort();
        }
        Reranker reranker = create(Map.of("format", "tei", "endpoint", "http://127.0.0.1:" + closedPort + "/rerank"));
        RerankException e = failure(reranker);
        assertTrue(e.getMessage().startsWith("could not connect to rerank endpoint http://127.0.0.1:" + closedPort + "/rerank"),
                e.getMessage());
    }

    @Test
    void queryStringIsLeftOutOfMessages() {
        service.route("/rerank", exchange -> FakeRerankService.respond(exchange, 500, "boom"));
        Reranker reranker = create(Map.of("format", "tei", "endpoint", service.uri("/rerank") + "?key=hidden-value"));
        RerankException e = failure(reranker);
        assertFalse(e.getMessage().contains("hidden-value"), e.getMessage());
    }

    @Test
    void configurationProblemsAreListedTogether() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class,
                () -> create(Map.of("format", "cohere", "endpoint", "ftp://example.org/rerank")));
        assertEquals(List.of("option 'model' is required for format cohere",
                "option 'endpoint' must be an http or https URL, got scheme 'ftp'"), e.problems());
        // Declared bounds are checked by the server before the provider sees the configuration.
        assertEquals(List.of("option 'batchSize': must be at least 1, got 0"), assertThrows(InvalidConfigException.class,
                () -> create(Map.of("format", "tei", "endpoint", "http://localhost/rerank", "batchSize", "0"))).problems());

        assertEquals(List.of("option 'endpoint' is required for format tei"),
                assertThrows(InvalidConfigException.class, () -> create(Map.of("format", "tei"))).problems());
        assertTrue(assertThrows(InvalidConfigException.class,
                () -> create(Map.of("format", "tei", "endpoint", "https://user:pw@example.org/rerank")))
                .problems().get(0).contains("must not carry credentials"));
        assertTrue(assertThrows(InvalidConfigException.class, () -> create(Map.of())).problems().get(0).contains("'format' is required"));

        RerankerProvider provider = provider();
        assertEquals(e.problems(), assertThrows(InvalidConfigException.class, () -> provider.validate(PluginConfig.validate("http",
                provider.configOptions(), Map.of("format", "cohere", "endpoint", "ftp://example.org/rerank")))).problems(),
                "validate refuses what create refuses, creating nothing");
        provider.validate(PluginConfig.validate("http", provider.configOptions(), Map.of("format", "tei", "endpoint", "http://localhost/rerank")));
    }

    @Test
    void apiKeyIsASecretOption() {
        RerankerProvider provider = provider();
        assertTrue(provider.configOptions().stream().filter(o -> o.name().equals("apiKey")).findFirst().orElseThrow().secret());
        PluginConfig config = PluginConfig.validate("http", provider.configOptions(), Map.of("format", "tei", "apiKey", API_KEY));
        assertEquals("******", config.describe().get("apiKey"));
    }
}
