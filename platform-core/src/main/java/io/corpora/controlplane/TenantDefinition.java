package io.corpora.controlplane;

import io.corpora.spi.Identifiers;
import java.util.Objects;

/**
 * What an operator declares about a tenant (a file in {@code tenants-config/} or the admin API): everything but
 * the runtime state the server keeps (active embedder fingerprint, timestamps).
 *
 * @param reranker null for none
 * @param ingest   where {@code {url}} ingests may fetch from (none: URL ingest refused)
 * @param generator the language model that answers {@code ask}; null for none (ask answers 501, retrieval is unaffected)
 * @param answers  how answers are prompted and which query transforms run (all off by default)
 */
public record TenantDefinition(String id, String displayName, TenantState state, PluginChoice store, PluginChoice embedder,
                               PluginChoice reranker, RetrievalDefaults retrieval, Quotas quotas, AccessPolicy access,
                               IngestPolicy ingest, PluginChoice generator, AnswerPolicy answers) {
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
        answers = Objects.requireNonNullElse(answers, AnswerPolicy.DEFAULT);
    }

    /** A tenant without a generator. */
    public TenantDefinition(String id, String displayName, TenantState state, PluginChoice store, PluginChoice embedder,
                            PluginChoice reranker, RetrievalDefaults retrieval, Quotas quotas, AccessPolicy access,
                            IngestPolicy ingest) {
        this(id, displayName, state, store, embedder, reranker, retrieval, quotas, access, ingest, null, AnswerPolicy.DEFAULT);
    }

    /** A tenant without URL ingest. */
    public TenantDefinition(String id, String displayName, TenantState state, PluginChoice store, PluginChoice embedder,
                            PluginChoice reranker, RetrievalDefaults retrieval, Quotas quotas, AccessPolicy access) {
        this(id, displayName, state, store, embedder, reranker, retrieval, quotas, access, IngestPolicy.NONE, null, AnswerPolicy.DEFAULT);
    }

    public TenantDefinition withState(TenantState newState) {
        return new TenantDefinition(id, displayName, newState, store, embedder, reranker, retrieval, quotas, access, ingest, generator, answers);
    }

    public TenantDefinition withRetrieval(RetrievalDefaults newRetrieval) {
        return new TenantDefinition(id, displayName, state, store, embedder, reranker, newRetrieval, quotas, access, ingest, generator, answers);
    }

    public TenantDefinition withStore(PluginChoice newStore) {
        return new TenantDefinition(id, displayName, state, newStore, embedder, reranker, retrieval, quotas, access, ingest, generator, answers);
    }

    public TenantDefinition withEmbedder(PluginChoice newEmbedder) {
        return new TenantDefinition(id, displayName, state, store, newEmbedder, reranker, retrieval, quotas, access, ingest, generator, answers);
    }
}
