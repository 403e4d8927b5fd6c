package io.corpora.client;

import java.net.URI;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;

/**
 * An RFC 9457 problem the server answered (every 4xx/5xx of Corpora is one). {@code type} is a stable URI per kind of
 * problem (e.g. {@code https://corpora.dev/problems/document-not-found}); {@link #kind()} is its last segment.
 * {@code extensions} holds the problem's other members (e.g. {@code documentId}, {@code errors}).
 */
public class CorporaProblemException extends CorporaException {

    private static final long serialVersionUID = 1L;

    private final URI type;
    private final int status;
    private final String title;
    private final String detail;
    private final String requestId;
    private final Duration retryAfter;
    private final transient Map<String, Object> extensions;

    public CorporaProblemException(URI type, int status, String title, String detail, String requestId, Duration retryAfter,
                                   Map<String, Object> extensions) {
        super(status + " " + title + (detail == null ? "" : ": " + detail) + (requestId == null ? "" : " (request " + requestId + ")"));
        this.type = type;
        this.status = status;
        this.title = title;
        this.detail = detail;
        this.requestId = requestId;
        this.retryAfter = retryAfter;
        this.extensions = Map.copyOf(extensions);
    }

    public URI type() {
        return type;
    }

    /** The last path segment of {@link #type()}, e.g. {@code document-not-found}; {@code about:blank} when untyped. */
    public String kind() {
        if (type == null) {
            return "about:blank";
        }
        String path = type.getPath();
        return path == null || path.isEmpty() ? type.toString() : path.substring(path.lastIndexOf('/') + 1);
    }

    public int status() {
        return status;
    }

    public String title() {
        return title;
    }

    public String detail() {
        return detail;
    }

    /** The server's id of the request (the {@code X-Request-Id} it echoed), to find it in the server's log. */
    public String requestId() {
        return requestId;
    }

    /** When the server said to try again (429, 503, and a 409 of a running migration); empty when it did not. */
    public Optional<Duration> retryAfter() {
        return Optional.ofNullable(retryAfter);
    }

    public Map<String, Object> extensions() {
        return extensions;
    }
}
