package io.corpora.server.control;

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
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A test input: a real store that "kills the process" on cue — it throws {@link SimulatedCrash}, an {@link Error} that no
 * recovery code catches — so a test can reproduce the exact state a crash at that point leaves behind.
 */
final class CrashingStore implements VectorStore {

    /** The process died here. */
    static final class SimulatedCrash extends Error {
        private static final long serialVersionUID = 1L;

        SimulatedCrash(String where) {
            super("simulated crash " + where);
        }
    }

    private final VectorStore delegate;
    /** Upserts still allowed before the crash; negative: never crash. */
    final AtomicInteger upsertsBeforeCrash = new AtomicInteger(-1);
    volatile boolean crashOnDeleteWhere;

    CrashingStore(VectorStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        if (upsertsBeforeCrash.getAndDecrement() == 0) {
            throw new SimulatedCrash("before an upsert");
        }
        delegate.upsert(namespace, chunks);
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        if (crashOnDeleteWhere) {
            throw new SimulatedCrash("before a delete");
        }
        return delegate.deleteWhere(namespace, filter);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return delegate.capabilities();
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
    public void close() {
        delegate.close();
    }
}
