package io.corpora.rerank.http;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.spi.rerank.Reranker;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Scores passages with a hosted (or self-hosted) rerank endpoint. Texts are sent in batches of at most
 * {@code batchSize}; every batch must come back complete within the timeout, or the whole call fails with a
 * {@link RerankException} (the engine then keeps the first-stage order, flagged as degraded). Redirects are never
 * followed and response bodies are bounded. Thread-safe: the JDK client is shared, every call is independent.
 */
final class HttpReranker implements Reranker {

    private static final int ERROR_BODY_EXCERPT = 300;

    /** Everything a reranker instance needs, validated by the provider. */
    record Settings(RerankFormat format, URI endpoint, String model, String apiKey, Duration timeout, long maxResponseBytes,
                    int batchSize) {}

    private final Settings settings;
    private final String endpointForMessages;
    private final HttpClient client;
    private final ObjectMapper json = new ObjectMapper();

    HttpReranker(Settings settings) {
        this.settings = settings;
        URI endpoint = settings.endpoint();
        // The query string is left out of messages: some gateways carry keys there.
        this.endpointForMessages = endpoint.getScheme() + "://" + endpoint.getAuthority() + (endpoint.getPath() == null ? "" : endpoint.getPath());
        this.client = HttpClient.newBuilder()
                .followRedirects(HttpClient.Redirect.NEVER)
                .connectTimeout(settings.timeout())
                .build();
    }

    @Override
    public double[] score(String query, List<String> texts) {
        Objects.requireNonNull(query, "query");
        Objects.requireNonNull(texts, "texts");
        double[] scores = new double[texts.size()];
        for (int from = 0; from < texts.size(); from += settings.batchSize()) {
            List<String> batch = texts.subList(from, Math.min(texts.size(), from + settings.batchSize()));
            double[] batchScores = scoreBatch(query, batch);
            System.arraycopy(batchScores, 0, scores, from, batchScores.length);
        }
        return scores;
    }

    private double[] scoreBatch(String query, List<String> batch) {
        byte[] body;
        try {
            body = json.writeValueAsBytes(settings.format().requestBody(json, settings.model(), query, batch));
        } catch (JsonProcessingException e) {
            throw new RerankException("could not encode the rerank request for " + endpointForMessages, e);
        }
        HttpRequest.Builder request = HttpRequest.newBuilder(settings.endpoint())
                .timeout(settings.timeout())
                .header("Content-Type", "application/json")
                .header("Accept", "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        if (settings.apiKey() != null) {
            request.header("Authorization", "Bearer " + settings.apiKey());
        }
        HttpResponse<byte[]> response = send(request.build());
        int status = response.statusCode();
        if (status >= 300 && status < 400) {
            throw new RerankException("rerank endpoint " + endpointForMessages + " answered HTTP " + status + " redirecting to "
                    + response.headers().firstValue("Location").orElse("(no Location)")
                    + "; redirects are not followed, configure the final URL as 'endpoint'");
        }
        if (status < 200 || status >= 300) {
            throw new RerankException("rerank endpoint " + endpointForMessages + " answered HTTP " + status + hint(status)
                    + ": " + excerpt(response.body()));
        }
        JsonNode tree;
        try {
            tree = json.readTree(response.body());
        } catch (IOException e) {
            throw new RerankException("rerank response from " + endpointForMessages + " is not JSON: " + excerpt(response.body()), e);
        }
        return ScoreTable.align(settings.format(), tree == null ? json.missingNode() : tree, batch.size(),
                "rerank response from " + endpointForMessages);
    }

    private HttpResponse<byte[]> send(HttpRequest request) {
        CompletableFuture<HttpResponse<byte[]>> future =
                client.sendAsync(request, info -> new BoundedBodySubscriber(settings.maxResponseBytes()));
        try {
            // The request timeout covers the wait for headers; this bound also covers a body that trickles in.
            return future.get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            future.cancel(true);
            throw timedOut(e);
        } catch (InterruptedException e) {
            future.cancel(true);
            Thread.currentThread().interrupt();
            throw new RerankException("interrupted while waiting for rerank endpoint " + endpointForMessages, e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof HttpTimeoutException) {
                throw timedOut(cause);
            }
            if (cause instanceof BoundedBodySubscriber.TooLarge) {
                throw new RerankException("rerank response from " + endpointForMessages + " is larger than "
                        + settings.maxResponseBytes() + " bytes (option 'maxResponseBytes')", cause);
            }
            if (cause instanceof ConnectException) {
                throw new RerankException("could not connect to rerank endpoint " + endpointForMessages + " ("
                        + (cause.getMessage() == null ? "connection refused" : cause.getMessage()) + ")", cause);
            }
            throw new RerankException("rerank request to " + endpointForMessages + " failed: " + cause, cause);
        }
    }

    private RerankException timedOut(Throwable cause) {
        return new RerankException("rerank endpoint " + endpointForMessages + " did not answer within "
                + settings.timeout().toMillis() + " ms (option 'timeout')", cause);
    }

    private static String hint(int status) {
        return switch (status) {
            case 401, 403 -> " (check the 'apiKey' option)";
            case 404 -> " (check the 'endpoint' option and the 'format')";
            case 413 -> " (request too large: lower 'batchSize')";
            case 429 -> " (rate limited by the service)";
            default -> "";
        };
    }

    private static String excerpt(byte[] body) {
        String text = new String(body, StandardCharsets.UTF_8).strip();
        if (text.isEmpty()) {
            return "(empty body)";
        }
        return text.length() > ERROR_BODY_EXCERPT ? text.substring(0, ERROR_BODY_EXCERPT) + "…" : text;
    }
}
