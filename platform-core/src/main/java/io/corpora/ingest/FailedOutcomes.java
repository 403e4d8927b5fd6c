package io.corpora.ingest;

import io.corpora.controlplane.IngestJob;

/**
 * How one document's failed work becomes its job outcome, alike for ingests, rebuilds and corpus migrations: a refusal
 * ({@link IngestException}) keeps its status, kind and reason; input the pipeline or a plugin refused
 * ({@link IllegalArgumentException}, the SPI's {@code InvalidInputException} among them) is 400 {@code invalid-request}
 * with its reason; anything else is 500 {@code internal-error} naming only the exception's class, because its message
 * may carry a store's or a driver's internals. The caller logs what is {@link #unexpected}, with its stack trace.
 */
public final class FailedOutcomes {

    private FailedOutcomes() {}

    /**
     * The outcome of {@code documentId} at {@code version} (0 when none was begun) that failed with {@code e};
     * {@code unchanged} ends an internal error's reason with what the failure left as it was.
     */
    public static IngestJob.Outcome of(String documentId, int version, RuntimeException e, String unchanged) {
        if (e instanceof IngestException refusal) {
            return IngestJob.Outcome.failed(documentId, version, refusal.status(), refusal.type(), refusal.getMessage());
        }
        if (e instanceof IllegalArgumentException invalid) {
            return IngestJob.Outcome.failed(documentId, version, 400, "invalid-request", invalid.getMessage());
        }
        return IngestJob.Outcome.failed(documentId, version, 500, "internal-error", "internal error (" + e.getClass().getSimpleName() + "); " + unchanged);
    }

    /** A failure no caller input explains: a bug, or a store or plugin that broke. */
    public static boolean unexpected(RuntimeException e) {
        return !(e instanceof IngestException) && !(e instanceof IllegalArgumentException);
    }
}
