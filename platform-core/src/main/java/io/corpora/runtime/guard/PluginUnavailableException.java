package io.corpora.runtime.guard;

/**
 * A guarded plugin call did not produce an answer: it timed out, kept failing, its breaker is open or its bulkhead full.
 * Adapters answer 503 with {@code Retry-After: retryAfterSeconds()}, or 502 for {@link Reason#PERMANENT} (the
 * reranker's caller degrades instead).
 */
public final class PluginUnavailableException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public enum Reason {
        TIMEOUT("timed out"),
        FAILED("failed"),
        CIRCUIT_OPEN("circuit open"),
        BULKHEAD_FULL("bulkhead full"),
        /** The plugin said retrying cannot help ({@link io.corpora.spi.FailureKind#PERMANENT}); answered 502. */
        PERMANENT("failed permanently");

        private final String text;

        Reason(String text) {
            this.text = text;
        }

        public String text() {
            return text;
        }
    }

    private final CallKind kind;
    private final Reason reason;
    private final long retryAfterSeconds;

    public PluginUnavailableException(GuardKey key, Reason reason, long retryAfterSeconds, String detail, Throwable cause) {
        super(key.kind().label() + " '" + key.provider() + "' of tenant '" + key.tenant() + "': " + reason.text()
                + (detail == null ? "" : " (" + detail + ")") + "; retry in " + retryAfterSeconds + " s", cause);
        this.kind = key.kind();
        this.reason = reason;
        this.retryAfterSeconds = retryAfterSeconds;
    }

    public CallKind kind() {
        return kind;
    }

    public Reason reason() {
        return reason;
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }
}
