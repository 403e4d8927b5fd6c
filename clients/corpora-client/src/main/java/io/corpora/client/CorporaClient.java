package io.corpora.client;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.client.model.AskRequest;
import io.corpora.client.model.AskResponse;
import io.corpora.client.model.CorpusStats;
import io.corpora.client.model.DocumentChunks;
import io.corpora.client.model.Document;
import io.corpora.client.model.DocumentInput;
import io.corpora.client.model.DocumentPage;
import io.corpora.client.model.Evaluation;
import io.corpora.client.model.EvaluationList;
import io.corpora.client.model.EvaluationRequest;
import io.corpora.client.model.IndexReport;
import io.corpora.client.model.IngestOutcome;
import io.corpora.client.model.Job;
import io.corpora.client.model.JobList;
import io.corpora.client.model.RetrievalBatchResult;
import io.corpora.client.model.RetrievalResult;
import io.corpora.client.model.RetrieveBatchRequest;
import io.corpora.client.model.RetrieveRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.StringJoiner;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * Corpora's data-plane API for one tenant: retrieve, ask, documents, jobs, stats, the index's verify and rebuild, and
 * retrieval-quality evaluations. Thread-safe; build one per tenant and token source and share it.
 *
 * <pre>{@code
 * CorporaClient corpora = CorporaClient.builder(URI.create("https://corpora.example.com/"), "acme")
 *         .token(() -> identityProvider.currentAccessToken())
 *         .build();
 * RetrievalResult result = corpora.retrieve(RetrieveRequest.of("how do I rotate keys?").withTopK(5));
 * }</pre>
 *
 * <p>Every 4xx/5xx is a {@link CorporaProblemException}; a failure to reach the server is a {@link CorporaException}.
 * Calls repeat only as {@link RetryPolicy} says. The token supplier is asked on every request (and every retry), so it
 * can hand out refreshed tokens. Routes this class has no method for yet go through {@link #call}, with the same
 * authentication, problem decoding and retries.
 */
public final class CorporaClient {

    private static final ObjectMapper JSON = new ObjectMapper().disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
    private static final Duration FIRST_POLL = Duration.ofMillis(100);
    private static final Duration LONGEST_POLL = Duration.ofSeconds(2);
    /** The longest a server holds a look at a running job ({@code GET jobs/{id}?wait=}). */
    private static final Duration LONGEST_JOB_WAIT = Duration.ofSeconds(30);

    private final URI tenantBase;
    private final String tenant;
    private final Supplier<String> token;
    private final HttpClient http;
    private final RetryPolicy retries;
    private final Duration requestTimeout;

    private CorporaClient(Builder b) {
        URI base = b.baseUri.toString().endsWith("/") ? b.baseUri : URI.create(b.baseUri + "/");
        this.tenant = b.tenant;
        this.tenantBase = base.resolve("api/v1/tenants/" + segment(b.tenant) + "/");
        this.token = b.token;
        this.http = b.http != null ? b.http : HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
        this.retries = b.retries;
        this.requestTimeout = b.requestTimeout;
    }

    /** A client for {@code tenant} on the server at {@code baseUri} (the root the {@code api/v1/…} paths hang from). */
    public static Builder builder(URI baseUri, String tenant) {
        return new Builder(baseUri, tenant);
    }

    public String tenant() {
        return tenant;
    }

    // --- retrieval ---------------------------------------------------------------------------------------------

    /** Cited passages and a context block for a query, filtered by the caller's access. */
    public RetrievalResult retrieve(RetrieveRequest request) {
        return call("POST", "retrieve", request, RetrievalResult.class, true);
    }

    /** Up to 32 retrieves in one call, answered in order. */
    public RetrievalBatchResult retrieveBatch(RetrieveBatchRequest request) {
        return call("POST", "retrieve:batch", request, RetrievalBatchResult.class, true);
    }

    // --- answers -----------------------------------------------------------------------------------------------

    /**
     * An answer from the tenant's generator, grounded in the passages the caller may see and citing them as {@code [n]}.
     * A tenant without a generator is a 501 problem ({@code generator-not-configured}). Not repeated on a 503: the
     * model may have been called.
     */
    public AskResponse ask(AskRequest request) {
        return call("POST", "ask", request.streamed(false), AskResponse.class, false);
    }

    /**
     * The same answer as server-sent events: returns once the server accepted the question (a refusal before the
     * stream, e.g. 501 or 403, is thrown here as a {@link CorporaProblemException}), then hands the numbered passages
     * and the answer's pieces to {@code listener} on the stream's thread; {@link AskStream#answer()} completes with the
     * {@code done} event's answer. Cancel with {@link AskStream#cancel()}.
     */
    public AskStream askStreaming(AskRequest request, AskListener listener) {
        Objects.requireNonNull(listener, "listener");
        HttpResponse<InputStream> response = exchange("POST", "ask", "text/event-stream", "application/json",
                json(request.streamed(true)), HttpResponse.BodyHandlers.ofInputStream(), CorporaClient::readAll, false);
        return AskStream.start(response.body(), listener, JSON, response.headers().firstValue("X-Request-Id").orElse(null),
                "corpora-ask-" + tenant);
    }

    // --- documents ---------------------------------------------------------------------------------------------

    /** Ingests one document (text, or a url the server fetches); answered once stored (or skipped when unchanged). */
    public IngestOutcome ingest(DocumentInput document) {
        return call("POST", "documents", document, IngestOutcome.class, false);
    }

    /** Ingests several text documents as a job; {@link #awaitJob} waits for it. */
    public Job ingestBatch(List<DocumentInput> documents) {
        return call("POST", "documents", documents, Job.class, false);
    }

    /** Uploads files (PDF, HTML, Markdown, text…; the server detects the type) as one job, into {@code partition} (or null). */
    public Job upload(List<Path> files, String partition, Map<String, Object> metadata) {
        Multipart form = new Multipart();
        try {
            for (Path file : files) {
                form.file("file", file);
            }
            if (partition != null) {
                form.field("partition", partition);
            }
            if (metadata != null && !metadata.isEmpty()) {
                form.field("metadata", JSON.writeValueAsString(metadata));
            }
        } catch (IOException e) {
            throw new CorporaException("cannot read the files to upload: " + e.getMessage(), e);
        }
        return send("POST", "documents", form.contentType(), form.body(), Job.class, false);
    }

    /** One page of the documents the caller may see, in id order; pass the page's {@code next} as {@code after}. */
    public DocumentPage documents(String partition, String after, int limit) {
        return call("GET", "documents" + query("partition", partition, "after", after, "limit", Integer.toString(limit)), null,
                DocumentPage.class, true);
    }

    /** A document's registry entry; any id (it is sent as a query parameter). */
    public Document document(String id, String partition) {
        return call("GET", "document" + query("id", id, "partition", partition), null, Document.class, true);
    }

    /** The chunks of a document's active version. */
    public DocumentChunks chunks(String id, String partition) {
        return call("GET", "document/chunks" + query("id", id, "partition", partition), null, DocumentChunks.class, true);
    }

    /** Deletes a document and its chunks; a document the caller may not see is a 404 problem, like a missing one. */
    public void delete(String id, String partition) {
        call("DELETE", "document" + query("id", id, "partition", partition), null, Void.class, true);
    }

    // --- jobs and stats ----------------------------------------------------------------------------------------

    public JobList jobs(int limit) {
        return call("GET", "jobs" + query("limit", Integer.toString(limit)), null, JobList.class, true);
    }

    public Job job(String id) {
        return call("GET", "jobs/" + segment(id), null, Job.class, true);
    }

    /**
     * Waits until the job finished (SUCCEEDED, PARTIALLY_FAILED or FAILED: check {@link Job#status()}); a
     * {@link CorporaException} once {@code timeout} passed. Each look asks the server to hold its answer until the job
     * finishes (up to 30 s, and within the request timeout), so the caller learns of it at once; a server that answers
     * at once is polled after 100 ms, then doubling up to 2 s between polls.
     */
    public Job awaitJob(String id, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        long longest = Math.min(LONGEST_JOB_WAIT.toSeconds(), requestTimeout.minusSeconds(5).toSeconds());
        Supplier<Job> look = () -> {
            long waitSeconds = Math.max(0, Math.min(longest, Duration.between(Instant.now(), deadline).toSeconds()));
            return call("GET", "jobs/" + segment(id) + "?wait=" + waitSeconds, null, Job.class, true);
        };
        return await("job " + id, look, Job::finished, job -> job.status() + ", " + job.percent() + " %", timeout);
    }

    /** Documents, chunks and bytes the caller may see. */
    public CorpusStats stats() {
        return call("GET", "stats", null, CorpusStats.class, true);
    }

    // --- the index ---------------------------------------------------------------------------------------------

    /**
     * Whether the store holds exactly the chunks the registry expects, in the tenant's namespace or {@code partition}'s
     * (null: the token's), counting only what the caller may see; repairs nothing. Writer or tenant-admin.
     */
    public IndexReport verifyIndex(String partition) {
        return call("GET", "index:verify" + query("partition", partition), null, IndexReport.class, true);
    }

    /**
     * Starts a job re-pushing every registered document from the registry's text, then removing orphaned chunks;
     * {@link #awaitJob} waits for it and {@link #verifyIndex} confirms the result. Tenant-admin. Not repeated on a 503:
     * a second call would start a second job.
     */
    public Job rebuildIndex(String partition) {
        return call("POST", "index:rebuild" + query("partition", partition), null, Job.class, false);
    }

    // --- evaluations -------------------------------------------------------------------------------------------

    /**
     * Starts an evaluation of the tenant's retrieval on a judged set, one run per candidate configuration, and returns
     * it QUEUED; {@link #awaitEvaluation} waits for it. Changes nothing ({@link #applyEvaluation} does). Tenant-admin;
     * one evaluation of a tenant runs at a time (else a 409 problem {@code evaluation-running}).
     */
    public Evaluation evaluate(EvaluationRequest request) {
        return call("POST", "evaluations", request, Evaluation.class, false);
    }

    /** One page of the tenant's evaluations, newest first, without per-query scores; pass the page's {@code next} as {@code offset}. */
    public EvaluationList evaluations(int offset, int limit) {
        return call("GET", "evaluations" + query("offset", Integer.toString(offset), "limit", Integer.toString(limit)), null,
                EvaluationList.class, true);
    }

    /** One evaluation with its progress and, once SUCCEEDED, every candidate's per-query scores. */
    public Evaluation evaluation(String id) {
        return call("GET", "evaluations/" + segment(id), null, Evaluation.class, true);
    }

    /** Polls the evaluation as {@link #awaitJob} polls a job, until SUCCEEDED or FAILED (check {@link Evaluation#status()}). */
    public Evaluation awaitEvaluation(String id, Duration timeout) {
        return await("evaluation " + id, () -> evaluation(id), Evaluation::ended,
                evaluation -> evaluation.status() + ", " + evaluation.progress().percent() + " %", timeout);
    }

    /**
     * Applies the evaluation's recommended mode (and, for hybrid, fusion) to the tenant's retrieval configuration and
     * returns the evaluation with {@code appliedAt} set. An evaluation that did not succeed or was applied already is a
     * 409 problem {@code evaluation-not-applicable}.
     */
    public Evaluation applyEvaluation(String id) {
        return call("POST", "evaluations/" + segment(id) + ":apply", null, Evaluation.class, false);
    }

    /**
     * Polls {@code poll} until {@code finished}, first after 100 ms, then doubling up to 2 s between polls; a
     * {@link CorporaException} naming {@code what} and its {@code progress} once {@code timeout} passed.
     */
    private static <T> T await(String what, Supplier<T> poll, Predicate<T> finished, Function<T, String> progress, Duration timeout) {
        Instant deadline = Instant.now().plus(timeout);
        Duration pause = FIRST_POLL;
        while (true) {
            T current = poll.get();
            if (finished.test(current)) {
                return current;
            }
            Duration left = Duration.between(Instant.now(), deadline);
            if (left.isNegative()) {
                throw new CorporaException(what + " not finished within " + timeout + ": " + progress.apply(current));
            }
            sleep(pause.compareTo(left) < 0 ? pause : left);
            pause = pause.multipliedBy(2).compareTo(LONGEST_POLL) > 0 ? LONGEST_POLL : pause.multipliedBy(2);
        }
    }

    // --- the transport -----------------------------------------------------------------------------------------

    /**
     * Any route under {@code api/v1/tenants/{tenant}/}: {@code path} relative to it (query included, already encoded),
     * {@code body} serialised as JSON (or none when null), the answer decoded as {@code type} ({@code Void.class} for none).
     * {@code idempotent} says whether a 503 with Retry-After may be repeated (see {@link RetryPolicy}).
     */
    public <T> T call(String method, String path, Object body, Class<T> type, boolean idempotent) {
        return send(method, path, "application/json", json(body), type, idempotent);
    }

    private static byte[] json(Object body) {
        try {
            return body == null ? null : JSON.writeValueAsBytes(body);
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot serialise the request body: " + e.getMessage(), e);
        }
    }

    private <T> T send(String method, String path, String contentType, byte[] body, Class<T> type, boolean idempotent) {
        HttpResponse<byte[]> response = exchange(method, path, "application/json", contentType, body, HttpResponse.BodyHandlers.ofByteArray(),
                Function.identity(), idempotent);
        return decode(response, type);
    }

    /**
     * One call with its retries: the response once its status is below 400; else the problem, decoded from the error
     * body ({@code errorBytes} reads it from whatever {@code handler} made of it), repeated as {@link RetryPolicy} says.
     */
    private <B> HttpResponse<B> exchange(String method, String path, String accept, String contentType, byte[] body,
                                         HttpResponse.BodyHandler<B> handler, Function<B, byte[]> errorBytes, boolean idempotent) {
        URI uri = URI.create(tenantBase + path); // not resolve(): "retrieve:batch" would parse as a URI scheme
        for (int attempt = 0; ; attempt++) {
            HttpRequest.Builder request = HttpRequest.newBuilder(uri).timeout(requestTimeout).header("Accept", accept);
            String bearer = token.get();
            if (bearer != null) {
                request.header("Authorization", "Bearer " + bearer);
            }
            request.method(method, body == null ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            if (body != null) {
                request.header("Content-Type", contentType);
            }
            HttpResponse<B> response;
            CorporaProblemException problem;
            try {
                response = http.send(request.build(), handler);
                if (response.statusCode() < 400) {
                    return response;
                }
                problem = Problems.decode(JSON, response.statusCode(), response.headers(), errorBytes.apply(response.body()));
            } catch (IOException | UncheckedIOException e) {
                throw new CorporaException(method + " " + uri + " failed: " + e.getMessage(), e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new CorporaException(method + " " + uri + " interrupted", e);
            }
            long wait = retries.waitMillis(attempt, idempotent, problem);
            if (wait < 0) {
                throw problem;
            }
            sleep(Duration.ofMillis(wait));
        }
    }

    private static byte[] readAll(InputStream body) {
        try (body) {
            return body.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static <T> T decode(HttpResponse<byte[]> response, Class<T> type) {
        if (type == Void.class || response.body().length == 0) {
            return null;
        }
        try {
            return JSON.readValue(response.body(), type);
        } catch (IOException e) {
            throw new CorporaException("the server's answer is not a " + type.getSimpleName() + ": " + e.getMessage(), e);
        }
    }

    private static String query(String... namesAndValues) {
        StringJoiner query = new StringJoiner("&", "?", "").setEmptyValue("");
        for (int i = 0; i < namesAndValues.length; i += 2) {
            if (namesAndValues[i + 1] != null) {
                query.add(namesAndValues[i] + "=" + URLEncoder.encode(namesAndValues[i + 1], StandardCharsets.UTF_8));
            }
        }
        return query.toString();
    }

    /** One path segment, percent-encoded (URLEncoder's '+' for space is wrong in a path). */
    private static String segment(String value) {
        return URLEncoder.encode(Objects.requireNonNull(value), StandardCharsets.UTF_8).replace("+", "%20");
    }

    private static void sleep(Duration pause) {
        try {
            Thread.sleep(Math.max(1, pause.toMillis()));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CorporaException("interrupted while waiting", e);
        }
    }

    /** Options of a {@link CorporaClient}; only the token is required. */
    public static final class Builder {
        private final URI baseUri;
        private final String tenant;
        private Supplier<String> token;
        private HttpClient http;
        private RetryPolicy retries = RetryPolicy.DEFAULT;
        private Duration requestTimeout = Duration.ofSeconds(60);

        private Builder(URI baseUri, String tenant) {
            this.baseUri = Objects.requireNonNull(baseUri, "baseUri");
            this.tenant = Objects.requireNonNull(tenant, "tenant");
        }

        /** The bearer token, asked for on every request (return a refreshed one when it nears expiry). */
        public Builder token(Supplier<String> token) {
            this.token = Objects.requireNonNull(token, "token");
            return this;
        }

        /** A fixed bearer token (tests, short-lived jobs). */
        public Builder token(String token) {
            Objects.requireNonNull(token, "token");
            return token(() -> token);
        }

        public Builder httpClient(HttpClient http) {
            this.http = Objects.requireNonNull(http, "http");
            return this;
        }

        public Builder retries(RetryPolicy retries) {
            this.retries = Objects.requireNonNull(retries, "retries");
            return this;
        }

        public Builder requestTimeout(Duration timeout) {
            this.requestTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        public CorporaClient build() {
            if (token == null) {
                throw new IllegalStateException("a token (or token supplier) is required: every Corpora route needs a bearer token");
            }
            return new CorporaClient(this);
        }
    }
}
