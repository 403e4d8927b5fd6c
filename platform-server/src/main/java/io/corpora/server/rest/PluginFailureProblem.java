package io.corpora.server.rest;

import io.corpora.runtime.guard.PluginUnavailableException;
import io.corpora.spi.FailureKind;
import io.corpora.spi.PluginException;
import io.corpora.spi.loader.DocumentLoadException;

/**
 * The problem+json status and type of a plugin's failure, by the SPI's failure contract ({@link FailureKind}): a caller
 * error is the caller's to fix (4xx, its message shown), a transient failure is worth retrying later (503 with
 * {@code Retry-After}), a permanent one is not until an operator acts (502). Kept apart from the JAX-RS mappers so the
 * decision is testable without a container.
 *
 * @param status            the HTTP status
 * @param type              the problem type's last path segment
 * @param title             the problem title
 * @param retryAfterSeconds the {@code Retry-After} to send, 0 for none
 */
public record PluginFailureProblem(int status, String type, String title, long retryAfterSeconds) {

    /** Retry-After for a transient failure that reached the REST layer without passing a guard (which knows better). */
    static final long UNGUARDED_RETRY_AFTER_SECONDS = 2;

    /** A plugin exception that reached the REST layer: unguarded (e.g. from {@code create}), or a caller error the guard passed through. */
    public static PluginFailureProblem of(PluginException e) {
        if (e instanceof DocumentLoadException load) {
            return load.reason() == DocumentLoadException.Reason.TOO_LARGE
                    ? new PluginFailureProblem(413, "document-too-large", "Payload too large", 0)
                    : new PluginFailureProblem(422, "unprocessable-document", "Unprocessable document", 0);
        }
        return switch (e.failureKind()) {
            case CALLER_ERROR -> new PluginFailureProblem(422, "plugin-rejected-input", "Input rejected by a plugin", 0);
            case TRANSIENT -> new PluginFailureProblem(503, "plugin-unavailable", "Service unavailable", UNGUARDED_RETRY_AFTER_SECONDS);
            case PERMANENT -> new PluginFailureProblem(502, "plugin-failed", "Plugin failed", 0);
        };
    }

    /** A guarded call that gave no answer: 502 when the plugin said retrying cannot help, else 503 with the guard's Retry-After. */
    public static PluginFailureProblem of(PluginUnavailableException e) {
        return e.reason() == PluginUnavailableException.Reason.PERMANENT
                ? new PluginFailureProblem(502, "plugin-failed", "Plugin failed", 0)
                : new PluginFailureProblem(503, "plugin-unavailable", "Service unavailable", e.retryAfterSeconds());
    }

    jakarta.ws.rs.core.Response toResponse(String detail, java.util.Map<String, ?> extensions) {
        jakarta.ws.rs.core.Response response = Problem.response(status, type, title, detail, extensions);
        return retryAfterSeconds > 0
                ? jakarta.ws.rs.core.Response.fromResponse(response).header("Retry-After", Long.toString(retryAfterSeconds)).build()
                : response;
    }
}
