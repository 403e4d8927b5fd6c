package io.corpora.server.admin;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** Any-method calls with JSON bodies against the server the build started, for the tenant admin IT. */
final class TenantAdminHttp {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base = URI.create("http://localhost:" + System.getProperty("corpora.http.port", "9080") + "/");
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    /** A response with its Location header and its JSON body parsed on demand. */
    record Reply(int status, String contentType, String body, String location) {
        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new AssertionError("not JSON (" + status + "): " + body, e);
            }
        }

        boolean isProblem() {
            return contentType.startsWith("application/problem+json");
        }
    }

    Reply send(String method, String path, String token, String jsonBody) {
        HttpRequest.Builder request = HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(60))
                .method(method, jsonBody == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofString(jsonBody));
        if (jsonBody != null) {
            request.header("Content-Type", "application/json");
        }
        if (token != null) {
            request.header("Authorization", "Bearer " + token);
        }
        try {
            HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
            return new Reply(response.statusCode(), response.headers().firstValue("Content-Type").orElse(""), response.body(),
                    response.headers().firstValue("Location").orElse(null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    Reply get(String path, String token) {
        return send("GET", path, token, null);
    }
}
