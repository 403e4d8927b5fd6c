package io.corpora.server.rest;

import java.util.Map;

/** Thrown by adapters to answer with a specific problem; mapped to problem+json as is. */
public class ProblemException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final int status;
    private final String type;
    private final String title;
    private final transient Map<String, ?> extensions;
    private long retryAfterSeconds;

    public ProblemException(int status, String type, String title, String detail) {
        this(status, type, title, detail, Map.of());
    }

    public ProblemException(int status, String type, String title, String detail, Map<String, ?> extensions) {
        super(detail);
        this.status = status;
        this.type = type;
        this.title = title;
        this.extensions = Map.copyOf(extensions);
    }

    /** The HTTP status this problem answers with. */
    public int status() {
        return status;
    }

    /** Adds a {@code Retry-After} header (for 429 and 503). */
    public ProblemException retryAfter(long seconds) {
        this.retryAfterSeconds = seconds;
        return this;
    }

    public jakarta.ws.rs.core.Response toResponse() {
        jakarta.ws.rs.core.Response response = Problem.response(status, type, title, getMessage(), extensions);
        return retryAfterSeconds > 0
                ? jakarta.ws.rs.core.Response.fromResponse(response).header("Retry-After", Long.toString(retryAfterSeconds)).build()
                : response;
    }
}
