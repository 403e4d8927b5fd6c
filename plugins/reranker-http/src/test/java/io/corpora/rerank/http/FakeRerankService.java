package io.corpora.rerank.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local stand-in for the hosted rerank APIs (JDK HttpServer on 127.0.0.1, a free port), answering each wire
 * format the way the real services document it: results sorted best first, so the client must map them back by
 * index. Its "model" scores a text by the fraction of query words it contains. Records every request.
 */
final class FakeRerankService implements AutoCloseable {

    /** One request as received. */
    record Received(String path, String authorization, JsonNode body) {}

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    final List<Received> requests = new CopyOnWriteArrayList<>();
    /**
     * Each exchange's parsed body while its handler runs. Not {@code HttpExchange.setAttribute}: the JDK's server keeps
     * exchange attributes in the context, shared by concurrent requests (one caller was answered with another's texts).
     */
    private final Map<HttpExchange, JsonNode> bodies = new ConcurrentHashMap<>();

    FakeRerankService() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        route("/v2/rerank", exchange -> answerScores(exchange, "documents", "results", "relevance_score", false));
        route("/jina/v1/rerank", exchange -> answerScores(exchange, "documents", "results", "relevance_score", false));
        route("/v1/rerank", exchange -> answerScores(exchange, "documents", "data", "relevance_score", false));
        route("/rerank", exchange -> answerScores(exchange, "texts", null, "score", true));
        server.start();
    }

    /** Adds or replaces a handler; every request is recorded before the handler runs. */
    void route(String path, HttpHandler handler) {
        try {
            server.removeContext(path);
        } catch (IllegalArgumentException absent) {
            // first registration
        }
        server.createContext(path, exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            JsonNode json = body.length == 0 ? JSON.missingNode() : JSON.readTree(body);
            requests.add(new Received(exchange.getRequestURI().getPath(), exchange.getRequestHeaders().getFirst("Authorization"), json));
            bodies.put(exchange, json);
            try {
                handler.handle(exchange);
            } finally {
                bodies.remove(exchange);
            }
        });
    }

    URI uri(String path) {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + path);
    }

    JsonNode body(HttpExchange exchange) {
        return bodies.get(exchange);
    }

    static void respond(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** The fake model: the fraction of the query's words that appear in the text. */
    static double relevance(String query, String text) {
        Set<String> queryWords = words(query);
        Set<String> textWords = words(text);
        long hits = queryWords.stream().filter(textWords::contains).count();
        return queryWords.isEmpty() ? 0 : (double) hits / queryWords.size();
    }

    private static Set<String> words(String text) {
        return new HashSet<>(Arrays.asList(text.toLowerCase(Locale.ROOT).split("\\W+")));
    }

    private void answerScores(HttpExchange exchange, String textsField, String resultsField, String scoreField,
                              boolean bareArray) throws IOException {
        JsonNode request = body(exchange);
        String query = request.path("query").asText();
        List<String> texts = new ArrayList<>();
        request.path(textsField).forEach(node -> texts.add(node.asText()));
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < texts.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingDouble((Integer i) -> relevance(query, texts.get(i))).reversed());
        int topN = request.path("top_n").asInt(texts.size());
        ArrayNode results = JSON.createArrayNode();
        for (int i : order.subList(0, Math.min(topN, order.size()))) {
            results.addObject().put("index", i).put(scoreField, relevance(query, texts.get(i)));
        }
        if (bareArray) {
            respond(exchange, 200, results.toString());
            return;
        }
        ObjectNode response = JSON.createObjectNode();
        response.set(resultsField, results);
        response.put("model", request.path("model").asText());
        respond(exchange, 200, response.toString());
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
