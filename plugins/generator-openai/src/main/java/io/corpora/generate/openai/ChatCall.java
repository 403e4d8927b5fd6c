package io.corpora.generate.openai;

import io.corpora.spi.generate.FinishReason;
import io.corpora.spi.generate.Generation;
import io.corpora.spi.generate.GenerationStream;
import io.corpora.spi.generate.TokenUsage;
import java.io.IOException;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One chat-completions call, plain or streamed, from its first attempt to its result: sends the request, retries as
 * the {@link RetryPolicy} says while no answer has begun, reads the answer (a JSON body, or server-sent events whose
 * deltas go to the consumer as they arrive), and completes the result once — with the generation, with a failure
 * mapped by {@link Failures}, or with a {@link CancellationException} on {@link #cancel()}.
 *
 * <p>After {@link #start()} everything runs on the HTTP client's threads (the body, one buffer at a time) and on
 * the scheduler's (retry waits, idle checks). {@link #cancel()} may race with any of it: every step first checks
 * whether the result is complete, and whatever is in flight — a request, a body being read, a retry wait — is
 * registered so that the cancel (or any failure) aborts it.
 */
final class ChatCall implements GenerationStream {

    private static final int ERROR_BODY_CHARS = 2000;

    private final OpenAiGenerator.Shared shared;
    private final byte[] body;
    private final Consumer<String> deltas;
    private final CompletableFuture<Generation> result = new CompletableFuture<>();
    private volatile Runnable abortInFlight = () -> {};

    /** @param deltas null for a plain call, which asks for a JSON body instead of a stream */
    ChatCall(OpenAiGenerator.Shared shared, byte[] body, Consumer<String> deltas) {
        this.shared = shared;
        this.body = body;
        this.deltas = deltas;
    }

    void start() {
        attempt(1);
    }

    @Override
    public CompletionStage<Generation> result() {
        return result.minimalCompletionStage();
    }

    /** The result itself, for the generator's own blocking wait. */
    CompletableFuture<Generation> future() {
        return result;
    }

    @Override
    public void cancel() {
        fail(new CancellationException("generation cancelled"));
    }

    private boolean streamed() {
        return deltas != null;
    }

    private void attempt(int number) {
        if (result.isDone()) {
            return;
        }
        try {
            Attempt attempt = new Attempt();
            CompletableFuture<HttpResponse<Void>> sent = shared.client().sendAsync(request(), attempt::subscriber);
            inFlight(() -> {
                attempt.abort();
                sent.cancel(true);
            });
            sent.whenComplete((response, error) -> finished(number, attempt, response, error));
        } catch (RuntimeException e) { // the generator was closed, or the request could not be built
            fail(shared.failures().of(e));
        }
    }

    private HttpRequest request() {
        ChatEndpoint endpoint = shared.endpoint();
        HttpRequest.Builder request = HttpRequest.newBuilder(endpoint.uri())
                .timeout(shared.timeout())
                .header("Content-Type", "application/json")
                .header("Accept", streamed() ? "text/event-stream" : "application/json")
                .POST(HttpRequest.BodyPublishers.ofByteArray(body));
        endpoint.headers().forEach(request::header);
        if (endpoint.plainHttp()) {
            request.version(java.net.http.HttpClient.Version.HTTP_1_1);
        }
        return request.build();
    }

    private void finished(int number, Attempt attempt, HttpResponse<Void> response, Throwable error) {
        if (result.isDone()) {
            return;
        }
        if (error != null) {
            Throwable cause = Failures.unwrap(error);
            if (attempt.status == 0 && cause instanceof IOException && !(cause instanceof HttpTimeoutException)
                    && number <= shared.retry().maxRetries()) {
                retry(number, Optional.empty()); // no answer at all: the connection failed
            } else {
                fail(shared.failures().of(cause));
            }
            return;
        }
        int status = response.statusCode();
        if (status >= 200 && status < 300) {
            // The body handler completes the result; reaching here without is a body that ended without an answer.
            fail(new MalformedResponseException(shared.failures().subject() + " ended its answer without completing it"));
            return;
        }
        String message = attempt.errorMessage();
        if (RetryPolicy.isRetryable(status) && number <= shared.retry().maxRetries()) {
            Optional<Duration> requested = RetryPolicy.requestedWait(response.headers(), Instant.now());
            if (requested.isPresent() && shared.retry().tooLong(requested.get())) {
                fail(shared.failures().waitTooLong(status, requested.get(), shared.retry().maxDelay(), message));
            } else {
                retry(number, requested);
            }
            return;
        }
        fail(shared.failures().status(status, message, response.headers().firstValue("Location").orElse(null), number));
    }

    private void retry(int failedAttempt, Optional<Duration> requested) {
        Duration delay = shared.retry().delayBefore(failedAttempt, requested);
        try {
            ScheduledFuture<?> wait = shared.scheduler().schedule(() -> attempt(failedAttempt + 1), delay.toNanos(), TimeUnit.NANOSECONDS);
            inFlight(() -> wait.cancel(false));
        } catch (RuntimeException e) {
            fail(new CancellationException("the generator was closed"));
        }
    }

    /** Registers what a cancel must abort now; aborts it at once if the result completed meanwhile. */
    private void inFlight(Runnable abort) {
        abortInFlight = abort;
        if (result.isDone()) {
            abort.run();
        }
    }

    private void fail(RuntimeException failure) {
        if (result.completeExceptionally(failure)) {
            abortInFlight.run();
            shared.forget(this);
        }
    }

    private void complete(Generation generation) {
        if (result.complete(generation)) {
            shared.forget(this);
        }
    }

    /** One request and how its response is read; the body handler runs when the status and headers arrive. */
    private final class Attempt {
        private volatile int status;
        private volatile LineSubscriber subscriber;
        private final StringBuilder errorBody = new StringBuilder();

        HttpResponse.BodySubscriber<Void> subscriber(HttpResponse.ResponseInfo info) {
            status = info.statusCode();
            LineSubscriber.Lines lines;
            if (status < 200 || status >= 300) {
                lines = line -> {
                    if (errorBody.length() < ERROR_BODY_CHARS) {
                        errorBody.append(line).append('\n');
                    }
                };
            } else if (streamed() && isEventStream(info.headers())) {
                lines = new SseEventReader(new StreamedAnswer());
            } else {
                lines = new PlainAnswer(); // also a backend that ignored "stream": true and answered in one piece
            }
            LineSubscriber reader = new LineSubscriber(shared.maxResponseBytes(), shared.timeout(), shared.scheduler(), lines);
            subscriber = reader;
            if (result.isDone()) {
                reader.cancel();
            }
            return reader;
        }

        void abort() {
            LineSubscriber reader = subscriber;
            if (reader != null) {
                reader.cancel();
            }
        }

        String errorMessage() {
            String text = errorBody.toString();
            String message = shared.json().errorMessage(text);
            return message != null ? message : ChatCompletionsJson.excerpt(text);
        }
    }

    private static boolean isEventStream(HttpHeaders headers) {
        return headers.firstValue("Content-Type").map(type -> type.toLowerCase(Locale.ROOT).startsWith("text/event-stream"))
                .orElse(false);
    }

    /** A JSON body: the whole answer at once (delivered as one delta when a stream was asked for). */
    private final class PlainAnswer implements LineSubscriber.Lines {
        private final StringBuilder text = new StringBuilder();

        @Override
        public void line(String line) {
            text.append(line).append('\n');
        }

        @Override
        public void end() {
            Generation generation = shared.json().completion(text.toString(), shared.model(), shared.failures().subject());
            if (streamed()) {
                deliver(generation.text());
            }
            complete(generation);
        }
    }

    /** Server-sent chunks: deltas as they come, the generation at {@code data: [DONE]}. */
    private final class StreamedAnswer implements SseEventReader.Events {
        private final StringBuilder text = new StringBuilder();
        private String model;
        private TokenUsage usage = TokenUsage.UNKNOWN;
        private FinishReason finishReason;
        private int chunks;

        @Override
        public void data(String data) {
            if (result.isDone()) {
                return; // completed at [DONE] or cancelled: the rest is drained unread
            }
            if (data.strip().equals("[DONE]")) {
                finish();
                return;
            }
            ChatCompletionsJson.Chunk chunk = shared.json().chunk(data, ++chunks, shared.failures().subject());
            if (chunk.error() != null) {
                throw shared.failures().streamError(chunk.error());
            }
            if (chunk.model() != null) {
                model = chunk.model();
            }
            if (chunk.usage().isKnown()) {
                usage = chunk.usage();
            }
            if (chunk.finishReason() != null) {
                finishReason = chunk.finishReason();
            }
            if (chunk.content() != null && !chunk.content().isEmpty()) {
                text.append(chunk.content());
                deliver(chunk.content());
            }
        }

        @Override
        public void end() {
            if (result.isDone()) {
                return;
            }
            if (finishReason == null) {
                throw shared.failures().brokenOff(chunks);
            }
            finish(); // a backend that ends the body after its last chunk without [DONE]
        }

        private void finish() {
            complete(new Generation(text.toString(), model != null ? model : shared.model(), usage, finishReason));
        }
    }

    private void deliver(String fragment) {
        if (fragment.isEmpty() || result.isDone()) {
            return;
        }
        try {
            deltas.accept(fragment);
        } catch (RuntimeException e) {
            fail(e);
        }
    }
}
