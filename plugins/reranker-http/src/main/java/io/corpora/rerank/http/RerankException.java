package io.corpora.rerank.http;

/**
 * A rerank call failed: the endpoint could not be reached, answered an error status or a redirect, was too slow,
 * or sent a response that does not score every document. The message names the endpoint (never the API key);
 * the engine turns it into a degraded, base-order result.
 */
public class RerankException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public RerankException(String message) {
        super(message);
    }

    public RerankException(String message, Throwable cause) {
        super(message, cause);
    }
}
