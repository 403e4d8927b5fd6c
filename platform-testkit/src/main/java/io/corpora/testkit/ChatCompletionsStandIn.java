package io.corpora.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * A local stand-in for a chat-completions server (JDK HttpServer on 127.0.0.1, a free port): no model can run on
 * these machines, so the tests drive the plugin against this, the one place the project accepts a stand-in. It
 * records every request (path, query, headers, JSON body, arrival time) and answers each with the next scripted
 * {@link Responder}, the last one repeating. The helpers write what the OpenAI API documents: a JSON completion, or
 * {@code text/event-stream} chunks flushed one by one and ended by {@code data: [DONE]}.
 */
public final class ChatCompletionsStandIn implements AutoCloseable {

    /** One request as received. */
    public record Received(String path, String query, Headers headers, JsonNode body, long arrivedNanos, Instant arrivedAt) {
        public String header(String name) {
            return headers.getFirst(name);
        }
    }

    /** Answers one request. */
    @FunctionalInterface
    public interface Responder {
        void respond(HttpExchange exchange, Received request) throws IOException, InterruptedException;
    }

    /** How long {@link #awaitRequests} waits before calling the test hung (not a performance bound). */
    public static final long HANG_SECONDS = 30;

    public static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Responder> script = new CopyOnWriteArrayList<>();
    public final List<Received> requests = new CopyOnWriteArrayList<>();

    public ChatCompletionsStandIn() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            try {
                byte[] body = exchange.getRequestBody().readAllBytes();
                Received request = new Received(exchange.getRequestURI().getPath(), exchange.getRequestURI().getRawQuery(),
                        exchange.getRequestHeaders(), body.length == 0 ? JSON.missingNode() : JSON.readTree(body),
                        System.nanoTime(), Instant.now());
                int index;
                synchronized (requests) {
                    requests.add(request);
                    index = requests.size() - 1;
                }
                script.get(Math.min(index, script.size() - 1)).respond(exchange, request);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // the stand-in is shutting down
            } finally {
                exchange.close();
            }
        });
        server.start();
    }

    /** The responders for the coming requests, in order; the last answers every request after it. */
    public ChatCompletionsStandIn answer(Responder... responders) {
        script.clear();
        script.addAll(List.of(responders));
        return this;
    }

    /** The OpenAI-style base URL, {@code http://127.0.0.1:<port>/v1}. */
    public String baseUrl() {
        return root() + "/v1";
    }

    public URI root() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Waits until {@code count} requests have arrived (a test's hang guard ends the wait). */
    public void awaitRequests(int count) throws InterruptedException {
        long giveUp = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(HANG_SECONDS);
        while (requests.size() < count) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("only " + requests.size() + " of " + count + " requests arrived");
            }
            Thread.sleep(10);
        }
    }

    public Received only() {
        if (requests.size() != 1) {
            throw new AssertionError("expected exactly one request, got " + requests.size());
        }
        return requests.get(0);
    }

    // ---- answers

    public static Responder status(int status, String body, String... headerPairs) {
        return (exchange, request) -> send(exchange, status, "application/json", body, headerPairs);
    }

    /** A plain chat completion with usage. */
    public static Responder completion(String text, String model, int promptTokens, int completionTokens) {
        return status(200, completionBody(text, model, promptTokens, completionTokens));
    }

    public static String completionBody(String text, String model, int promptTokens, int completionTokens) {
        ObjectNode body = JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion").put("model", model);
        ObjectNode choice = body.putArray("choices").addObject().put("index", 0).put("finish_reason", "stop");
        choice.putObject("message").put("role", "assistant").put("content", text);
        body.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return body.toString();
    }

    /** A stream: each payload as one {@code data:} event, flushed on its own, then {@code data: [DONE]}. */
    public static Responder events(String... payloads) {
        return (exchange, request) -> {
            try (OutputStream out = startStream(exchange)) {
                for (String payload : payloads) {
                    writeEvent(out, payload);
                }
                writeEvent(out, "[DONE]");
            }
        };
    }

    public static OutputStream startStream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream; charset=utf-8");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        return exchange.getResponseBody();
    }

    public static void writeEvent(OutputStream out, String payload) throws IOException {
        write(out, "data: " + payload + "\n\n");
    }

    public static void write(OutputStream out, String text) throws IOException {
        out.write(text.getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** A content chunk as OpenAI streams it. */
    public static String delta(String content) {
        ObjectNode chunk = chunkShell();
        chunk.putArray("choices").addObject().put("index", 0).putObject("delta").put("content", content);
        return chunk.toString();
    }

    /** The first chunk: the role, no content. */
    public static String roleChunk() {
        ObjectNode chunk = chunkShell();
        chunk.putArray("choices").addObject().put("index", 0).putObject("delta").put("role", "assistant");
        return chunk.toString();
    }

    public static String finishChunk(String reason) {
        ObjectNode chunk = chunkShell();
        ObjectNode choice = chunk.putArray("choices").addObject().put("index", 0).put("finish_reason", reason);
        choice.putObject("delta");
        return chunk.toString();
    }

    /** The last chunk with {@code stream_options.include_usage}: no choices, the usage. */
    public static String usageChunk(int promptTokens, int completionTokens) {
        ObjectNode chunk = chunkShell();
        chunk.putArray("choices");
        chunk.putObject("usage").put("prompt_tokens", promptTokens).put("completion_tokens", completionTokens)
                .put("total_tokens", promptTokens + completionTokens);
        return chunk.toString();
    }

    /** The payloads of a complete stream of {@code pieces}: role chunk, one chunk per piece, finish, usage. */
    public static String[] streamOf(List<String> pieces, int promptTokens) {
        List<String> payloads = new ArrayList<>();
        payloads.add(roleChunk());
        pieces.forEach(piece -> payloads.add(delta(piece)));
        payloads.add(finishChunk("stop"));
        payloads.add(usageChunk(promptTokens, pieces.size()));
        return payloads.toArray(String[]::new);
    }

    private static ObjectNode chunkShell() {
        return JSON.createObjectNode().put("id", "chatcmpl-1").put("object", "chat.completion.chunk").put("model", "stand-in-model-2024");
    }

    public static void send(HttpExchange exchange, int status, String contentType, String body, String... headerPairs) throws IOException {
        for (int i = 0; i + 1 < headerPairs.length; i += 2) {
            exchange.getResponseHeaders().add(headerPairs[i], headerPairs[i + 1]);
        }
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", contentType);
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
