package io.corpora.spi.loader;

/**
 * The document cannot be read: corrupt, encrypted, not in the declared format, or over a limit.
 * The message names the reason in words a user can act on; the server reports it as 422
 * (or 413 for {@link Reason#TOO_LARGE}) naming the document.
 */
public class DocumentLoadException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why loading failed, so the server can pick the status code. */
    public enum Reason { MALFORMED, ENCRYPTED, UNSUPPORTED, TOO_LARGE, TIMEOUT }

    private final Reason reason;

    public DocumentLoadException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public DocumentLoadException(Reason reason, String message, Throwable cause) {
        super(message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
