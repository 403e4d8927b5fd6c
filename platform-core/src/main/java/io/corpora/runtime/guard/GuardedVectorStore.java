package io.corpora.runtime.guard;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A shared store seen through one tenant's guard. Every data call is guarded (and so retried: searches and reads are
 * idempotent, upserts and deletes are by id); capabilities and the health check are not (readiness has its own timeout).
 */
public final class GuardedVectorStore extends SharedStoreView {

    private final PluginCallGuard guard;

    public GuardedVectorStore(VectorStore delegate, PluginCallGuard guard) {
        super(delegate);
        this.guard = guard;
    }

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        guard.run("upsert", () -> delegate.upsert(namespace, chunks));
    }

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        return guard.call("search", () -> delegate.search(namespace, request));
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        return guard.call("deleteChunks", () -> delegate.deleteChunks(namespace, chunkIds));
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        return guard.call("deleteDocument", () -> delegate.deleteDocument(namespace, documentId));
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        return guard.call("deleteWhere", () -> delegate.deleteWhere(namespace, filter));
    }

    @Override
    public void deleteNamespace(Namespace namespace) {
        guard.run("deleteNamespace", () -> delegate.deleteNamespace(namespace));
    }

    @Override
    public boolean deleteTenant(String tenantId) {
        return guard.call("deleteTenant", () -> delegate.deleteTenant(tenantId));
    }

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        return guard.call("documentChunks", () -> delegate.documentChunks(namespace, documentId));
    }

    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        return guard.call("list", () -> delegate.list(namespace, afterId, limit));
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        return guard.call("count", () -> delegate.count(namespace, filter));
    }

    @Override
    public Optional<Map<String, float[]>> storedVectors(Namespace namespace, Collection<String> chunkIds) {
        return guard.call("storedVectors", () -> delegate.storedVectors(namespace, chunkIds));
    }

    @Override
    public String consistencyToken(Namespace namespace) {
        return guard.call("consistencyToken", () -> delegate.consistencyToken(namespace));
    }
}
