package io.corpora.controlplane;

import io.corpora.spi.Identifiers;
import java.util.Objects;

/**
 * What an operator declares about a tenant (a file in {@code tenants-config/} or the admin API): everything but
 * the runtime state the server keeps (active embedder fingerprint, timestamps).
 *
 * @param reranker null for none
 * @param ingest   where {@code {url}} ingests may fetch from (none: URL ingest refused)
 */
public record TenantDefinition(String id, String displayName, TenantState state, PluginChoice store, PluginChoice embedder,
                               PluginChoice reranker, RetrievalDefaults retrieval, Quotas quotas, AccessPolicy access,
                               IngestPolicy ingest) {
    public TenantDefinition {
        Identifiers.requireNamespaceId("tenant", id);
        displayName = displayName == null || displayName.isBlank() ? id : displayName;
        state = Objects.requireNonNullElse(state, TenantState.ACTIVE);
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(embedder, "embedder");
        retrieval = Objects.requireNonNullElse(retrieval, RetrievalDefaults.STANDARD);
        quotas = Objects.requireNonNullElse(quotas, Quotas.UNLIMITED);
        access = Objects.requireNonNullElse(access, AccessPolicy.NONE);
        ingest = Objects.requireNonNullElse(ingest, IngestPolicy.NONE);
    }

    /** A tenant without URL ingest. */
    public TenantDefinition(String id, String displayName, TenantState state, PluginChoice store, PluginChoice embedder,
                            PluginChoice reranker, RetrievalDefaults retrieval, Quotas quotas, AccessPolicy access) {
        this(id, displayName, state, store, embedder, reranker, retrieval, quotas, access, IngestPolicy.NONE);
    }

    public TenantDefinition withState(TenantState newState) {
        return new TenantDefinition(id, displayName, newState, store, embedder, reranker, retrieval, quotas, access, ingest);
    }
}
