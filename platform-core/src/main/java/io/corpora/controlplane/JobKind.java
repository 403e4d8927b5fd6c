package io.corpora.controlplane;

/** What a job does: ingest documents, or re-embed a tenant's whole corpus with another embedder (a migration). */
public enum JobKind { INGEST, REEMBED }
