package io.corpora.security;

/** A verified token carries one of Corpora's claims in a shape Corpora does not accept; the token is unusable. */
public final class InvalidClaimException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String claim;

    public InvalidClaimException(String claim, String message) {
        super(message);
        this.claim = claim;
    }

    /** The claim's name, e.g. {@value TokenClaims#PARTITION}. */
    public String claim() {
        return claim;
    }
}
