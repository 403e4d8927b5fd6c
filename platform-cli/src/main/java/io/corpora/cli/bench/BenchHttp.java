package io.corpora.cli.bench;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/** JSON over HTTP/1.1 with a bearer token, for the benches that drive a live server. */
final class BenchHttp {

    private final URI server;
    /** HTTP/1.1: the JDK client's default h2c upgrade of a POST makes Liberty close the connection ("EOF reached while reading"). */
    private final HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).connectTimeout(Duration.ofSeconds(30)).build();

    BenchHttp(URI server) {
        this.server = server.toString().endsWith("/") ? server : URI.create(server + "/");
    }

    URI server() {
        return server;
    }

    HttpRequest post(String path, String token, String json) {
        return HttpRequest.newBuilder(server.resolve(path)).timeout(Duration.ofSeconds(180))
                .header("Authorization", "Bearer " + token).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json)).build();
    }

    HttpRequest get(String path, String token) {
        HttpRequest.Builder request = HttpRequest.newBuilder(server.resolve(path)).timeout(Duration.ofSeconds(60)).GET();
        return (token == null ? request : request.header("Authorization", "Bearer " + token)).build();
    }

    /** Creates a tenant on the embedded defaults (Lucene store, bundled ONNX model); one that exists already is kept. */
    void createTenant(String adminToken, String id, String displayName) throws IOException, InterruptedException {
        String definition = "{\"id\":\"" + id + "\",\"displayName\":\"" + displayName + "\","
                + "\"store\":{\"provider\":\"lucene\"},\"embedder\":{\"provider\":\"onnx\"}}";
        HttpResponse<String> created = send(post("admin/v1/tenants", adminToken, definition));
        if (created.statusCode() != 201 && created.statusCode() != 409) {
            throw new IOException("creating tenant " + id + ": HTTP " + created.statusCode() + " " + created.body());
        }
    }

    /** One call, no retry: what a measurement times. */
    HttpResponse<String> once(HttpRequest request) throws IOException, InterruptedException {
        return http.send(request, HttpResponse.BodyHandlers.ofString());
    }

    /** Retries a dropped connection twice (a loaded server may close idle keep-alive connections as they are reused). */
    HttpResponse<String> send(HttpRequest request) throws IOException, InterruptedException {
        for (int attempt = 1; ; attempt++) {
            try {
                return once(request);
            } catch (IOException e) {
                if (attempt == 3) {
                    throw new IOException(request.method() + " " + request.uri() + ": " + e, e);
                }
                Thread.sleep(500L * attempt);
            }
        }
    }
}
