package io.corpora.runtime.guard;

import java.time.Duration;
import java.util.Optional;
import java.util.function.Function;

/**
 * How one kind of plugin call is guarded. The parameters and their meaning are MicroProfile Fault Tolerance's:
 * {@code @Timeout(value)}, {@code @Retry(maxRetries, delay, jitter)}, {@code @CircuitBreaker(requestVolumeThreshold,
 * failureRatio, delay, successThreshold)} (here {@code breakerDelay}, as the name {@code delay} is Retry's) and
 * {@code @Bulkhead(value, waitingTaskQueue)} (here {@code bulkhead}). Durations are configured in milliseconds.
 *
 * @param maxRetries           retries after the first attempt (0: none)
 * @param jitter               each retry delay varies uniformly by ±jitter
 * @param requestVolumeThreshold size of the breaker's rolling window of outcomes
 * @param failureRatio         the breaker opens when this share of a full window failed
 * @param breakerDelay         how long the breaker stays open before letting trial calls through
 * @param successThreshold     consecutive successful trial calls that close a half-open breaker
 * @param bulkhead             concurrent calls per tenant and plugin
 * @param waitingTaskQueue     callers that may wait for a bulkhead slot (within their timeout); beyond that, rejected
 */
public record GuardPolicy(Duration timeout, int maxRetries, Duration delay, Duration jitter, int requestVolumeThreshold,
                          double failureRatio, Duration breakerDelay, int successThreshold, int bulkhead, int waitingTaskQueue) {

    public GuardPolicy {
        positive("timeout", timeout);
        notNegative("delay", delay);
        notNegative("jitter", jitter);
        positive("breakerDelay", breakerDelay);
        if (maxRetries < 0 || requestVolumeThreshold < 1 || successThreshold < 1 || bulkhead < 1 || waitingTaskQueue < 0) {
            throw new IllegalArgumentException("maxRetries and waitingTaskQueue must be ≥ 0; requestVolumeThreshold, successThreshold"
                    + " and bulkhead ≥ 1 (got " + maxRetries + ", " + waitingTaskQueue + ", " + requestVolumeThreshold + ", "
                    + successThreshold + ", " + bulkhead + ")");
        }
        if (!(failureRatio > 0 && failureRatio <= 1)) {
            throw new IllegalArgumentException("failureRatio must be in (0, 1], got " + failureRatio);
        }
    }

    /**
     * The built-in defaults. Store and embedder calls are retried twice (reads, searches, upserts and deletes by id are
     * idempotent); a reranker is not retried, since its fallback (the base order) is immediate while a retry would make
     * the caller wait for a slow reranker twice. Nor is a loader: parsing is deterministic, and its own limits bound it.
     * Nor is a generator: it retries 429/5xx itself (honouring Retry-After), so a guard retry on top would multiply its
     * attempts and bill the tokens of a half-streamed answer twice; its timeout spans a whole (streamed) answer.
     */
    public static GuardPolicy defaults(CallKind kind) {
        return switch (kind) {
            case EMBEDDER -> new GuardPolicy(Duration.ofSeconds(30), 2, Duration.ofMillis(100), Duration.ofMillis(50), 10, 0.5,
                    Duration.ofSeconds(5), 1, 8, 16);
            case STORE -> new GuardPolicy(Duration.ofSeconds(10), 2, Duration.ofMillis(100), Duration.ofMillis(50), 10, 0.5,
                    Duration.ofSeconds(5), 1, 16, 32);
            case RERANKER -> new GuardPolicy(Duration.ofSeconds(3), 0, Duration.ofMillis(100), Duration.ofMillis(50), 10, 0.5,
                    Duration.ofSeconds(5), 1, 8, 8);
            case FILTER_HOOK -> new GuardPolicy(Duration.ofSeconds(2), 1, Duration.ofMillis(50), Duration.ofMillis(25), 10, 0.5,
                    Duration.ofSeconds(5), 1, 16, 32);
            case LOADER -> new GuardPolicy(Duration.ofSeconds(60), 0, Duration.ofMillis(100), Duration.ofMillis(50), 10, 0.5,
                    Duration.ofSeconds(5), 1, 4, 16);
            case GENERATOR -> new GuardPolicy(Duration.ofSeconds(120), 0, Duration.ofMillis(100), Duration.ofMillis(50), 10, 0.5,
                    Duration.ofSeconds(10), 1, 4, 8);
        };
    }

    /** The defaults of this kind, each overridable by {@code corpora.ft.<kind>.<parameter>} in the given configuration. */
    public static GuardPolicy configured(CallKind kind, Function<String, Optional<String>> config) {
        GuardPolicy d = defaults(kind);
        Function<String, Optional<String>> param = name -> config.apply("corpora.ft." + kind.label() + "." + name).map(String::trim);
        try {
            return new GuardPolicy(
                    param.apply("timeout").map(GuardPolicy::millis).orElse(d.timeout()),
                    param.apply("maxRetries").map(Integer::parseInt).orElse(d.maxRetries()),
                    param.apply("delay").map(GuardPolicy::millis).orElse(d.delay()),
                    param.apply("jitter").map(GuardPolicy::millis).orElse(d.jitter()),
                    param.apply("requestVolumeThreshold").map(Integer::parseInt).orElse(d.requestVolumeThreshold()),
                    param.apply("failureRatio").map(Double::parseDouble).orElse(d.failureRatio()),
                    param.apply("breakerDelay").map(GuardPolicy::millis).orElse(d.breakerDelay()),
                    param.apply("successThreshold").map(Integer::parseInt).orElse(d.successThreshold()),
                    param.apply("bulkhead").map(Integer::parseInt).orElse(d.bulkhead()),
                    param.apply("waitingTaskQueue").map(Integer::parseInt).orElse(d.waitingTaskQueue()));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid corpora.ft." + kind.label() + ".* configuration: " + e.getMessage(), e);
        }
    }

    private static Duration millis(String value) {
        return Duration.ofMillis(Long.parseLong(value));
    }

    private static void positive(String name, Duration value) {
        if (value == null || value.isZero() || value.isNegative()) {
            throw new IllegalArgumentException(name + " must be positive, got " + value);
        }
    }

    private static void notNegative(String name, Duration value) {
        if (value == null || value.isNegative()) {
            throw new IllegalArgumentException(name + " must not be negative, got " + value);
        }
    }
}
