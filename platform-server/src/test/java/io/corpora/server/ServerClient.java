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
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private final DevTokenMinter tokens;

    public ServerClient(URI base, Path devPrivateKey) {
        this.base = base;
        this.tokens = DevTokenMinter.fromPem(devPrivateKey);
    }

    /** The server the build started: port and dev key from the failsafe configuration. */
    public static ServerClient fromBuild() {
        String port = System.getProperty("corpora.http.port", "9080");
        String key = System.getProperty("corpora.dev.jwt.private.key", "src/main/liberty/config/dev-jwt/private.pem");
        return new ServerClient(URI.create("http://localhost:" + port + "/"), Path.of(key));
    }

    public String token(String subject, String tenant, String... roles) {
        return tokens.mint(subject, tenant, List.of(roles), Duration.ofMinutes(10), Map.of());
    }

    public Response get(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET();
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        return send(request.build());
    }

    private Response send(HttpRequest request) {
        try {
            HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
            return new Response(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), response.body());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    /** A response with its JSON body parsed on demand. */
    public record Response(int status, String contentType, String body) {
        public JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }
    }
}
