package io.corpora.spi;

import java.util.Objects;

/**
 * A plugin's failure with its {@link FailureKind} (since SPI 1.3; Trino's {@code TrinoException} with an
 * {@code ErrorType}). Plugins throw it from any service method to tell the server whether to retry and whether the
 * failure says anything about the plugin's health; the message is shown to the caller for {@link
 * FailureKind#CALLER_ERROR}, and to operators (logs, problem detail) otherwise, so it must never contain a credential.
 *
 * <p><b>Exceptions that state no kind</b> (every exception of a 1.0 to 1.2 plugin) are classified as before 1.3: an
 * {@link InvalidInputException} is a caller error; for a document loader also a plain {@link IllegalArgumentException}
 * (its input is the caller's document, and the SPI's value types refuse what a document holds with one); anything else
 * is {@link FailureKind#TRANSIENT} — retried and counted by the breaker.
 */
public class PluginException extends RuntimeException implements ClassifiedFailure {

    private static final long serialVersionUID = 1L;

    private final FailureKind kind;

    public PluginException(FailureKind kind, String message) {
        super(message);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    public PluginException(FailureKind kind, String message, Throwable cause) {
        super(message, cause);
        this.kind = Objects.requireNonNull(kind, "kind");
    }

    /** The caller sent what cannot be served; see {@link FailureKind#CALLER_ERROR}. */
    public static PluginException callerError(String message) {
        return new PluginException(FailureKind.CALLER_ERROR, message);
    }

    /** The backend is unwell for now; see {@link FailureKind#TRANSIENT}. */
    public static PluginException transientFailure(String message, Throwable cause) {
        return new PluginException(FailureKind.TRANSIENT, message, cause);
    }

    /** Retrying cannot help until the plugin or its configuration changes; see {@link FailureKind#PERMANENT}. */
    public static PluginException permanentFailure(String message, Throwable cause) {
        return new PluginException(FailureKind.PERMANENT, message, cause);
    }

    @Override
    public FailureKind failureKind() {
        return kind;
    }
}
