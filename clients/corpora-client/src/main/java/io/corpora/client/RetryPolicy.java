package io.corpora.client;

import java.time.Duration;

/**
 * When the client repeats a call by itself: only after a 429 or 503 that carries {@code Retry-After}, waiting what the
 * server asked (never longer than {@code maxWait} per attempt), at most {@code maxRetries} times. 503 is retried only for
 * idempotent calls (reads, retrieves, deletes): the server may have started work before failing; a 429 comes from the
 * rate limiter before any work, so every call may repeat it. Anything else surfaces at once as a
 * {@link CorporaProblemException}.
 */
public record RetryPolicy(int maxRetries, Duration maxWait) {

    public static final RetryPolicy DEFAULT = new RetryPolicy(3, Duration.ofSeconds(30));
    public static final RetryPolicy NONE = new RetryPolicy(0, Duration.ZERO);

    public RetryPolicy {
        if (maxRetries < 0) {
            throw new IllegalArgumentException("maxRetries must be >= 0");
        }
        if (maxWait == null || maxWait.isNegative()) {
            throw new IllegalArgumentException("maxWait must be >= 0");
        }
    }

    /** How long to wait before attempt {@code attempt + 1}, or -1 to give up and throw. */
    long waitMillis(int attempt, boolean idempotent, CorporaProblemException problem) {
        boolean retryable = problem.status() == 429 || (problem.status() == 503 && idempotent);
        if (!retryable || attempt >= maxRetries || problem.retryAfter().isEmpty()) {
            return -1;
        }
        Duration wait = problem.retryAfter().get();
        return wait.compareTo(maxWait) > 0 ? -1 : wait.toMillis();
    }
}
