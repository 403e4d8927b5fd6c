package io.corpora.controlplane;

/**
 * A document version's activation refused by the control plane: the tenant's corpus is being re-embedded, or its
 * embedder changed while the version was being embedded. Checked under a lock on the tenant's row, so it holds for
 * every server sharing the control plane, not only the one running the migration.
 */
public final class WriteRefusedException extends IllegalStateException {

    public enum Reason { MIGRATION_IN_PROGRESS, EMBEDDER_CHANGED, STORE_MOVED }

    private final Reason reason;

    public WriteRefusedException(Reason reason, String message) {
        super(message);
        this.reason = reason;
    }

    public Reason reason() {
        return reason;
    }
}
