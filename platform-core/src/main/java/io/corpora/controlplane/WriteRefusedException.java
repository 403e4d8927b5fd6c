package io.corpora.controlplane;

/**
 * A document version's activation refused by the control plane: the tenant's corpus is being re-embedded or moved,
 * its embedder changed while the version was being embedded, another write of the same document (a delete too)
 * overlapped it, or the tenant was purged meanwhile.
 * Checked under the tenant's and the document's row locks, so it holds for every server sharing the control plane.
 */
public final class WriteRefusedException extends IllegalStateException {

    public enum Reason {
        MIGRATION_IN_PROGRESS, EMBEDDER_CHANGED, STORE_MOVED,
        /**
         * Another write of the same document overlapped this one (two uploads of one id at once): a later version was
         * begun while this one was written, the document's first version was begun by two writers at once, or the
         * document was deleted while this version was written.
         */
        CONCURRENT_WRITE,
        /** The tenant was purged while this version was written: there is nothing left to add it to. */
        TENANT_GONE
    }

    private final Reason reason;

    public WriteRefusedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
