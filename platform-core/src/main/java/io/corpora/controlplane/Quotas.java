package io.corpora.controlplane;

/** Per-tenant limits; 0 means unlimited. */
public record Quotas(long maxDocuments, long maxChunks, long maxBytes, int requestsPerMinute, int ingestsPerMinute) {
    public static final Quotas UNLIMITED = new Quotas(0, 0, 0, 0, 0);
}
