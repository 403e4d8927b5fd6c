package io.corpora.runtime;

import io.corpora.controlplane.TenantDefinition;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.store.VectorStore;
import java.util.Objects;

/**
 * The plugin instances serving one tenant, built from its definition. Stores and embedders are shared between
 * tenants with identical configuration (see {@link TenantRuntimes}); the namespace is never part of a runtime —
 * it is bound per request from the verified token.
 *
 * @param reranker   null when the tenant has none; made by its first call, so one that cannot be started degrades the
 *                   reranked retrievals alone
 * @param filterHook null when the tenant has none (no access filter is added)
 * @param generator  null when the tenant has none (ask is refused; retrieval is unaffected); made by its first call, so
 *                   one that cannot be started fails the asks alone
 */
public record TenantRuntime(TenantDefinition definition, VectorStore store, Embedder embedder, Reranker reranker,
                            RetrievalFilterHook filterHook, ChunkingOptions chunking, Generator generator) {
    public TenantRuntime {
        Objects.requireNonNull(definition, "definition");
        Objects.requireNonNull(store, "store");
        Objects.requireNonNull(embedder, "embedder");
        Objects.requireNonNull(chunking, "chunking");
    }

    /** A runtime without a generator. */
    public TenantRuntime(TenantDefinition definition, VectorStore store, Embedder embedder, Reranker reranker,
                         RetrievalFilterHook filterHook, ChunkingOptions chunking) {
        this(definition, store, embedder, reranker, filterHook, chunking, null);
    }

    /** The same runtime with another embedder (e.g. one that answers precomputed query vectors). */
    public TenantRuntime withEmbedder(Embedder other) {
        return new TenantRuntime(definition, store, other, reranker, filterHook, chunking, generator);
    }

    public String tenantId() {
        return definition.id();
    }

    /** The fingerprint id this runtime's embedder stamps on chunks. */
    public String embedderId() {
        return embedder.fingerprint().id();
    }
}
