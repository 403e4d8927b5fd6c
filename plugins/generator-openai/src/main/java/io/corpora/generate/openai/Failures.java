package io.corpora.generate.openai;

import io.corpora.spi.InvalidInputException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;

/**
 * Maps what went wrong in a call to the failure types of the Generator SPI: {@link InvalidInputException} for what
 * the caller asked (400, 413, 422), {@link UncheckedIOException} for what may pass (timeouts, connection failures,
 * 408/429/5xx once retries are spent, a stream broken off), {@link IllegalStateException} for what will not (401,
 * 403, 404, other 4xx, redirects, a response outside the protocol or over the size bound). Messages name the
 * endpoint without its query string, quote the server's own message, and never contain a credential.
 */
final class Failures {

    private final String endpoint;
    private final Duration connectTimeout;
    private final Duration timeout;
    private final long maxResponseBytes;

    Failures(String endpoint, Duration connectTimeout, Duration timeout, long maxResponseBytes) {
        this.endpoint = endpoint;
        this.connectTimeout = connectTimeout;
        this.timeout = timeout;
        this.maxResponseBytes = maxResponseBytes;
    }

    /** "chat completions endpoint {url}", the subject of every message. */
    String subject() {
        return "chat completions endpoint " + endpoint;
    }

    /** A failure of the exchange itself (no status to judge by). */
    RuntimeException of(Throwable error) {
        Throwable cause = unwrap(error);
        if (cause instanceof CancellationException || cause instanceof InvalidInputException
                || cause instanceof UncheckedIOException || cause instanceof IllegalStateException) {
            return (RuntimeException) cause; // already in the SPI's terms
        }
        if (cause instanceof LineSubscriber.Stalled) {
            return transientFailure(new HttpTimeoutException(subject() + " sent nothing for "
                    + timeout.toMillis() + " ms in the middle of its answer (option 'timeout')"), cause);
        }
        if (cause instanceof HttpConnectTimeoutException) {
            return transientFailure(new HttpConnectTimeoutException("could not connect to chat completions endpoint " + endpoint
                    + " within " + connectTimeout.toMillis() + " ms (option 'connectTimeout')"), cause);
        }
        if (cause instanceof HttpTimeoutException) {
            return transientFailure(new HttpTimeoutException(subject() + " did not answer within "
                    + timeout.toMillis() + " ms (option 'timeout')"), cause);
        }
        if (cause instanceof LineSubscriber.TooLarge) {
            return new IllegalStateException(subject() + " answered more than " + maxResponseBytes
                    + " bytes (option 'maxResponseBytes')", cause);
        }
        if (cause instanceof ConnectException) {
            return transientFailure(new ConnectException("could not connect to chat completions endpoint " + endpoint + " ("
                    + (cause.getMessage() == null ? "connection refused" : cause.getMessage()) + ")"), cause);
        }
        if (cause instanceof IOException) {
            return transientFailure(new IOException("chat completions request to " + endpoint + " failed: " + cause), cause);
        }
        if (cause instanceof RuntimeException runtime) {
            return runtime;
        }
        return new IllegalStateException("chat completions request to " + endpoint + " failed: " + cause, cause);
    }

    /**
     * A final error status. {@code message} is the server's error message or an excerpt of its body; {@code attempts}
     * how many requests were made.
     */
    RuntimeException status(int status, String message, String location, int attempts) {
        String answered = subject() + " answered HTTP " + status;
        return switch (status) {
            case 400, 413, 422 -> new InvalidInputException(answered + " to the request: " + message);
            case 401, 403 -> new IllegalStateException(answered + " (check the 'apiKey' option): " + message);
            case 404 -> new IllegalStateException(answered + " (check the 'baseUrl' and 'model' options, and 'deployment' for "
                    + "Azure): " + message);
            default -> {
                if (status >= 300 && status < 400) {
                    yield new IllegalStateException(answered + " redirecting to " + (location == null ? "(no Location)" : location)
                            + "; redirects are not followed, configure the final URL as 'baseUrl'");
                }
                if (RetryPolicy.isRetryable(status)) {
                    yield transientFailure(new IOException(answered + (attempts > 1 ? " to all " + attempts + " attempts" : "")
                            + (status == 429 ? " (rate limited)" : "") + ": " + message), null);
                }
                yield new IllegalStateException(answered + ": " + message);
            }
        };
    }

    /** A retryable status whose server asked to wait longer than the policy waits. */
    RuntimeException waitTooLong(int status, Duration requested, Duration maxDelay, String message) {
        return transientFailure(new IOException(subject() + " answered HTTP " + status
                + " and asked to retry after " + requested.toMillis() + " ms, longer than 'maxRetryDelay' ("
                + maxDelay.toMillis() + " ms): " + message), null);
    }

    /** The stream ended without {@code data: [DONE]} and without a finish reason: the answer may be cut off. */
    RuntimeException brokenOff(int chunks) {
        return transientFailure(new IOException(subject() + " ended its stream after " + chunks
                + " chunks without a finish reason or 'data: [DONE]'"), null);
    }

    /** An error event in the middle of a stream. */
    RuntimeException streamError(String message) {
        return transientFailure(new IOException(subject() + " reported an error mid-stream: "
                + message), null);
    }

    static Throwable unwrap(Throwable error) {
        Throwable cause = error;
        while ((cause instanceof CompletionException || cause instanceof ExecutionException) && cause.getCause() != null) {
            cause = cause.getCause();
        }
        return cause;
    }

    private static UncheckedIOException transientFailure(IOException described, Throwable cause) {
        if (cause != null && described.getCause() == null) {
            described.initCause(cause);
        }
        return new UncheckedIOException(described.getMessage(), described);
    }
}
