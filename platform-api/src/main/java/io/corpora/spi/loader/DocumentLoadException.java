package io.corpora.spi.loader;

import io.corpora.spi.FailureKind;
import io.corpora.spi.PluginException;

/**
 * The document cannot be read: corrupt, encrypted, not in the declared format, or over a limit.
 * The message names the reason in words a user can act on; the server reports it as 422
 * (or 413 for {@link Reason#TOO_LARGE}) naming the document.
 *
 * <p>Every reason is a {@link FailureKind#CALLER_ERROR}: the document is the caller's, and the same bytes fail the same
 * way again (a {@link Reason#TIMEOUT} is a document too costly to parse within the loader's limit). Since SPI 1.3 a
 * {@link PluginException}; before, a plain {@link RuntimeException} (inserting the superclass keeps 1.0 to 1.2 plugins
 * linking).
 */
public class DocumentLoadException extends PluginException {

    private static final long serialVersionUID = 1L;

    /** Why loading failed, so the server can pick the status code. */
    public enum Reason { MALFORMED, ENCRYPTED, UNSUPPORTED, TOO_LARGE, TIMEOUT }

    private final Reason reason;

    public DocumentLoadException(Reason reason, String message) {
        super(FailureKind.CALLER_ERROR, message);
        this.reason = reason;
    }

    public DocumentLoadException(Reason reason, String message, Throwable cause) {
        super(FailureKind.CALLER_ERROR, message, cause);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
