package io.corpora.ingest;

/**
 * An ingest that cannot proceed, with the HTTP status and problem type the REST layer answers with. The message
 * names the document and the reason; nothing was changed in the store or the registry.
 */
public class IngestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;

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

    /** The problem type slug, e.g. {@code unsupported-media-type}. */
    public String type() {
        return type;
    }
}
