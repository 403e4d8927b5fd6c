package io.corpora.controlplane;

/**
 * What a job does: ingest documents, rebuild a namespace's index from the registry's texts, re-embed a tenant's whole
 * corpus with another embedder (a migration), or move it to another store configuration (a relocation).
 */
public enum JobKind {
    INGEST, REBUILD, REEMBED, RELOCATE;

    /** Whether the job moves the tenant's whole corpus: its writes are refused until it ends. */
    public boolean migratesCorpus() {
        return this == REEMBED || this == RELOCATE;
    }
}
