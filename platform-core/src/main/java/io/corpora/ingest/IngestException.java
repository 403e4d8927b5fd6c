package io.corpora.ingest;

/**
 * An ingest that cannot proceed, with the HTTP status and problem type the REST layer answers with. The message
 * names the document and the reason; nothing was changed in the store or the registry.
 */
public class IngestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private long retryAfterSeconds;

    public IngestException(int status, String type, String message) {
        this(status, type, message, null);
    }

    public IngestException(int status, String type, String message, Throwable cause) {
        super(message, cause);
        this.status = status;
        this.type = type;
    }

    public int status() {
        return status;
    }

    /** Asks the caller to retry after this many seconds (a {@code Retry-After} header); for conflicts that pass. */
    public IngestException retryAfter(long seconds) {
        this.retryAfterSeconds = seconds;
        return this;
    }

    /** Seconds the caller should wait before retrying, or 0 when retrying will not help by itself. */
    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    /** The problem type slug, e.g. {@code unsupported-media-type}. */
    public String type() {
        return type;
    }
}
