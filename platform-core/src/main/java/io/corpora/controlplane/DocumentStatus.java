package io.corpora.controlplane;

/** Lifecycle of one document in the registry. */
public enum DocumentStatus {
    /** The active version is fully stored and searchable. */
    ACTIVE,
    /** A new version is being written; the previous active version (if any) still serves. */
    INGESTING,
    /** The last ingest failed; the previous active version (if any) still serves. */
    FAILED
}
