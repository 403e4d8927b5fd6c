package io.corpora.client;

/** A call to Corpora that did not complete: the server could not be reached, or a wait ran out. */
public class CorporaException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public CorporaException(String message, Throwable cause) {
        super(message, cause);
    }

    public CorporaException(String message) {
        super(message);
    }
}
