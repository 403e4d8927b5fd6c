package io.corpora.testkit;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** A test input: a real store behind a forwarder whose calls tests override to crash, leak or drive timing. */
public class ForwardingVectorStore implements VectorStore {

    private final VectorStore delegate;

    public ForwardingVectorStore(VectorStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return delegate.capabilities();
    }

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        delegate.upsert(namespace, chunks);
    }

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        return delegate.search(namespace, request);
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        return delegate.deleteChunks(namespace, chunkIds);
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        return delegate.deleteDocument(namespace, documentId);
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        return delegate.deleteWhere(namespace, filter);
    }

    @Override
    public void deleteNamespace(Namespace namespace) {
        delegate.deleteNamespace(namespace);
    }

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        return delegate.documentChunks(namespace, documentId);
    }

    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        return delegate.list(namespace, afterId, limit);
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        return delegate.count(namespace, filter);
    }

    @Override
    public Optional<Map<String, float[]>> storedVectors(Namespace namespace, Collection<String> chunkIds) {
        return delegate.storedVectors(namespace, chunkIds);
    }

    @Override
    public String consistencyToken(Namespace namespace) {
        return delegate.consistencyToken(namespace);
    }

    @Override
    public void close() {
        delegate.close();
    }
}
