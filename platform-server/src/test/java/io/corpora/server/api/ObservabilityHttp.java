package io.corpora.server.api;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * HTTP with arbitrary request headers and every response header, and the server's JSON messages.log, for observability
 * and fault tests. HTTP/1.1 on purpose: the JDK client's default h2c upgrade against Liberty, with concurrent requests on
 * the upgraded connection, got GOAWAY and stalled requests for up to the request timeout, which a latency test cannot have.
 */
final class ObservabilityHttp {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(10)).build();

    private ObservabilityHttp() {}

    record Reply(int status, Map<String, List<String>> headers, String body) {
        String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name)).map(e -> e.getValue().get(0))
                    .findFirst().orElse(null);
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }
    }

    static Reply get(String path, String token, Map<String, String> headers) {
        return send(request(path, token, headers).GET().build());
    }

    static Reply post(String path, String token, Object body, Map<String, String> headers) {
        try {
            return send(request(path, token, headers).header("Content-Type", "application/json")
                    .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static HttpRequest.Builder request(String path, String token, Map<String, String> headers) {
        URI base = URI.create("http://localhost:" + System.getProperty("corpora.http.port", "9080") + "/");
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60));
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        headers.forEach(request::header);
        return request;
    }

    private static Reply send(HttpRequest request) {
        try {
            HttpResponse<String> response = HTTP.send(request, HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers().map(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** The records of the most recently written messages.log of the build's Liberty servers (JSON, one record a line). */
    static Stream<JsonNode> jsonLogRecords() throws IOException {
        Path servers = Path.of("target", "liberty", "wlp", "usr", "servers");
        Path log;
        try (Stream<Path> candidates = Files.list(servers)) {
            log = candidates.map(server -> server.resolve("logs").resolve("messages.log")).filter(Files::isRegularFile)
                    .max(Comparator.comparing(ObservabilityHttp::modified)).orElseThrow(() -> new AssertionError("no messages.log under " + servers));
        }
        return Files.readAllLines(log).stream().filter(line -> line.startsWith("{")).map(line -> {
            try {
                return JSON.readTree(line);
            } catch (IOException e) {
                return null;
            }
        }).filter(Objects::nonNull);
    }

    private static java.nio.file.attribute.FileTime modified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
