package io.corpora.server;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.security.DevTokenMinter;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** A small HTTP client for integration tests against a running Corpora, with development tokens. */
public final class ServerClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    // HTTP/1.1: the JDK client's h2c upgrade against Liberty stalled concurrent requests (GOAWAY) for up to 120 s.
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(10)).build();
    private final DevTokenMinter tokens;

    public ServerClient(URI base, Path devPrivateKey) {
        this(base, DevTokenMinter.fromPem(devPrivateKey));
    }

    public ServerClient(URI base, DevTokenMinter tokens) {
        this.base = base;
        this.tokens = tokens;
    }

    /** The development private key the build's tests sign with (failsafe's corpora.dev.jwt.private.key). */
    public static Path devPrivateKey() {
        return Path.of(System.getProperty("corpora.dev.jwt.private.key", "dev-jwt/private.pem"));
    }

    /** The server the build started: port and dev key from the failsafe configuration. */
    public static ServerClient fromBuild() {
        String port = System.getProperty("corpora.http.port", "9080");
        return new ServerClient(URI.create("http://localhost:" + port + "/"), devPrivateKey());
    }

    public String token(String subject, String tenant, String... roles) {
        return tokens.mint(subject, tenant, List.of(roles), Duration.ofMinutes(10), Map.of());
    }

    /** A token with extra claims (e.g. acl_groups, partition). */
    public String token(String subject, String tenant, List<String> roles, Map<String, ?> extraClaims) {
        return tokens.mint(subject, tenant, roles, Duration.ofMinutes(10), extraClaims);
    }

    /** A token carrying exactly {@code claims} (any JSON shape) besides the registered ones the server verifies. */
    public String tokenWithClaims(Map<String, ?> claims) {
        return tokens.mintClaims(claims, Duration.ofMinutes(10));
    }

    public Response post(String path, String token, Object jsonBody) {
        return send(json(HttpRequest.newBuilder(base.resolve(path)), token).POST(HttpRequest.BodyPublishers.ofString(write(jsonBody))).build());
    }

    public Response put(String path, String token, Object jsonBody) {
        return send(json(HttpRequest.newBuilder(base.resolve(path)), token).PUT(HttpRequest.BodyPublishers.ofString(write(jsonBody))).build());
    }

    public Response delete(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).DELETE();
        return send(authorized(request, token).build());
    }

    /** A multipart/form-data POST; each part is (name, fileName or null, content type, bytes). */
    public Response postMultipart(String path, String token, List<Part> parts) {
        String boundary = "corpora-" + java.util.UUID.randomUUID();
        java.io.ByteArrayOutputStream body = new java.io.ByteArrayOutputStream();
        for (Part part : parts) {
            StringBuilder head = new StringBuilder("--").append(boundary).append("\r\n")
                    .append("Content-Disposition: form-data; name=\"").append(part.name()).append('"');
            if (part.fileName() != null) {
                head.append("; filename=\"").append(part.fileName()).append('"');
            }
            head.append("\r\nContent-Type: ").append(part.contentType()).append("\r\n\r\n");
            body.writeBytes(head.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8));
            body.writeBytes(part.content());
            body.writeBytes("\r\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        }
        body.writeBytes(("--" + boundary + "--\r\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(120))
                .header("Content-Type", "multipart/form-data; boundary=" + boundary)
                .POST(HttpRequest.BodyPublishers.ofByteArray(body.toByteArray()));
        return send(authorized(request, token).build());
    }

    public record Part(String name, String fileName, String contentType, byte[] content) {}

    private static HttpRequest.Builder json(HttpRequest.Builder request, String token) {
        request.timeout(Duration.ofSeconds(120)).header("Content-Type", "application/json").header("Accept", "application/json");
        return authorized(request, token);
    }

    private static String write(Object body) {
        try {
            return body instanceof String s ? s : JSON.writeValueAsString(body);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Any method with an optional JSON body given as text (null: no body). */
    public Response send(String method, String path, String token, String jsonBody) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(jsonBody));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        return send(authorized(request, token).build());
    }

    /** A GET with extra request headers (e.g. X-Request-Id). */
    public Response get(String path, String token, Map<String, String> headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60)).GET();
        headers.forEach(request::header);
        return send(authorized(request, token).build());
    }

    /** A JSON POST with extra request headers. */
    public Response post(String path, String token, Object jsonBody, Map<String, String> headers) {
        HttpRequest.Builder request = json(HttpRequest.newBuilder(base.resolve(path)), token)
                .POST(HttpRequest.BodyPublishers.ofString(write(jsonBody)));
        headers.forEach(request::header);
        return send(request.build());
    }

    private static HttpRequest.Builder authorized(HttpRequest.Builder request, String token) {
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return request;
    }

    public Response get(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET();
        return send(authorized(request, token).build());
    }

    /** The absolute URI of a server path, for requests built by hand. */
    public URI resolve(String path) {
        return base.resolve(path);
    }

    /** Sends a request built by hand (e.g. with a streaming body publisher). */
    public Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().map(), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A response with its headers and its JSON body parsed on demand. */
    public record Response(int status, Map<String, List<String>> headers, String body) {
        public Response {
            headers = headers == null ? Map.of() : headers;
        }

        /** A response known only by its status, content type and body (e.g. read from a raw socket). */
        public Response(int status, String contentType, String body) {
            this(status, Map.of("Content-Type", List.of(contentType)), body);
        }

        /** The first value of a header, by case-insensitive name; null when absent. */
        public String header(String name) {
            return headers.entrySet().stream().filter(e -> e.getKey().equalsIgnoreCase(name) && !e.getValue().isEmpty())
                    .map(e -> e.getValue().get(0)).findFirst().orElse(null);
        }

        public String contentType() {
            String type = header("Content-Type");
            return type == null ? "" : type;
        }

        public String location() {
            return header("Location");
        }

        public String retryAfter() {
            return header("Retry-After");
        }

        public boolean isProblem() {
            return contentType().startsWith("application/problem+json");
        }

        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }
    }
}
