package io.corpora.server.security;

/** The caller may not do this; answered as 403 problem+json. */
public class ForbiddenException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public ForbiddenException(String message) {
        super(message);
    }
}
