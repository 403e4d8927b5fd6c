package io.corpora.runtime;

import io.corpora.runtime.guard.SharedStoreView;
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
 * A shared store seen by one tenant inside the {@link TenantWorkingSet}: every data call holds a lease on the tenant, so
 * its namespaces are never closed under a call in flight, and a call on a closed tenant reopens it. Sits beneath the
 * tenant's guard: a call the guard stopped waiting for still holds its lease until it really ends.
 */
final class WorkingSetVectorStore extends SharedStoreView {

    private final TenantWorkingSet workingSet;
    private final String tenant;

    WorkingSetVectorStore(VectorStore delegate, TenantWorkingSet workingSet, String tenant) {
        super(delegate);
        this.workingSet = workingSet;
        this.tenant = tenant;
    }

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            delegate.upsert(namespace, chunks);
        }
    }

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.search(namespace, request);
        }
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.deleteChunks(namespace, chunkIds);
        }
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.deleteDocument(namespace, documentId);
        }
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.deleteWhere(namespace, filter);
        }
    }

    @Override
    public void deleteNamespace(Namespace namespace) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            delegate.deleteNamespace(namespace);
        }
    }

    @Override
    public boolean deleteTenant(String tenantId) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.deleteTenant(tenantId);
        }
    }

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.documentChunks(namespace, documentId);
        }
    }

    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.list(namespace, afterId, limit);
        }
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.count(namespace, filter);
        }
    }

    @Override
    public Optional<Map<String, float[]>> storedVectors(Namespace namespace, Collection<String> chunkIds) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.storedVectors(namespace, chunkIds);
        }
    }

    @Override
    public String consistencyToken(Namespace namespace) {
        try (TenantWorkingSet.Lease lease = workingSet.lease(tenant)) {
            return delegate.consistencyToken(namespace);
        }
    }
}
