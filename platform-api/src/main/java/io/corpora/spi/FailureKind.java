package io.corpora.spi;

/**
 * What a plugin's failure says about retrying it — the SPI's failure contract (since SPI 1.3), after Trino's
 * {@code ErrorType}. The server's fault-tolerance guard reads it instead of guessing from the exception's class.
 */
public enum FailureKind {

    /**
     * The caller's request cannot be served as sent (a query longer than the model accepts, a malformed document, a
     * value the backend cannot hold). Never retried; counted neither for nor against the plugin's circuit breaker (a
     * caller must not be able to open a tenant's breaker); answered 4xx with the message.
     */
    CALLER_ERROR,

    /**
     * The plugin or its backend is unwell for now (unreachable, overloaded, timed out, rate-limited). Retried with
     * back-off and counted by the breaker; answered 503 with {@code Retry-After} when retries run out.
     */
    TRANSIENT,

    /**
     * The plugin cannot serve any request until someone changes it or its configuration (wrong credentials, a missing
     * model, a backend answering outside its protocol). Not retried (it cannot help) but counted by the breaker, so a
     * broken plugin stops being called; answered 502.
     */
    PERMANENT
}
