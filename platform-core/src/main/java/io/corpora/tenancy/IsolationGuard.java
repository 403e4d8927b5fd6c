package io.corpora.tenancy;

import io.corpora.engine.retriever.IsolationReport;
import io.corpora.engine.retriever.PreparedSearch;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.Objects;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A store bound to one namespace for one request, which trusts nothing the store returns: every hit's reserved keys
 * ({@code _tenant}, {@code _partition}, and {@code _embedder} when the search names one) are re-checked, and foreign
 * or unstamped chunks are dropped and counted — fail closed, whatever the store plugin does. When drops leave a
 * search short, it over-fetches once, by a bounded factor, and reports reduced recall if that was not enough.
 *
 * <p>With a version oracle (the document registry), hits of a document version that is not the active one — a
 * replace still being written, or one that crashed — are dropped too, so no answer mixes two versions.
 *
 * <p>It also refuses to be used for any other namespace, and refuses to write chunks that are not stamped for it.
 */
public final class IsolationGuard implements VectorStore, PreparedSearch.Source {

    public static final int DEFAULT_OVER_FETCH = 4;
    public static final int MAX_OVER_FETCH = 16;

    private final VectorStore delegate;
    private final Namespace namespace;
    private final int overFetch;
    private final Function<Collection<String>, Map<String, Integer>> activeVersions;
    private final AtomicInteger examined = new AtomicInteger();
    private final AtomicInteger rejected = new AtomicInteger();
    private final AtomicInteger returned = new AtomicInteger();
    private final AtomicBoolean recallReduced = new AtomicBoolean();
    /** Document id → its active version as the oracle answered, {@link #NO_ACTIVE_VERSION} for none. */
    private final Map<String, Integer> knownVersions = new ConcurrentHashMap<>();
    private static final int NO_ACTIVE_VERSION = Integer.MIN_VALUE;

    public IsolationGuard(VectorStore delegate, Namespace namespace, int overFetch) {
        this(delegate, namespace, overFetch, null);
    }

    /** @param activeVersions document id → active version, for the given ids; null to skip version checks */
    public IsolationGuard(VectorStore delegate, Namespace namespace, int overFetch,
                          Function<Collection<String>, Map<String, Integer>> activeVersions) {
        this.activeVersions = activeVersions;
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        if (overFetch < 1 || overFetch > MAX_OVER_FETCH) {
            throw new IllegalArgumentException("over-fetch factor must be 1.." + MAX_OVER_FETCH + ", got " + overFetch);
        }
        this.overFetch = overFetch;
    }

    public IsolationReport report() {
        return new IsolationReport(examined.get(), rejected.get(), returned.get(), recallReduced.get());
    }

    /** Whether a chunk is stamped for this namespace (and, if given, this embedder generation). */
    public boolean belongs(Chunk chunk, String embedderId) {
        Object tenant = chunk.metadata().get(ReservedKeys.TENANT);
        Object partition = chunk.metadata().get(ReservedKeys.PARTITION);
        if (!namespace.tenant().equals(tenant) || !namespace.partitionKey().equals(partition)) {
            return false;
        }
        return embedderId == null || embedderId.equals(chunk.metadata().get(ReservedKeys.EMBEDDER));
    }

    @Override
    public List<ScoredChunk> search(Namespace ns, SearchRequest request) {
        requireBound(ns);
        return checked(request, delegate.search(namespace, request));
    }

    /**
     * The search in two steps: the store's call on whatever thread fetches, every check above (and an over-fetch, if
     * drops leave it short) on the thread that takes the hits — the version oracle may need that thread's context.
     */
    @Override
    public PreparedSearch prepare(Namespace ns, SearchRequest request) {
        requireBound(ns);
        return PreparedSearch.of(() -> delegate.search(namespace, request), hits -> checked(request, hits));
    }

    private List<ScoredChunk> checked(SearchRequest request, List<ScoredChunk> first) {
        List<ScoredChunk> accepted = verified(first, request.embedderId());
        boolean droppedAny = accepted.size() < first.size();
        if (accepted.size() < request.topK() && droppedAny && overFetch > 1) {
            int wider = (int) Math.min((long) request.topK() * overFetch, Integer.MAX_VALUE);
            List<ScoredChunk> hits = delegate.search(namespace, request.withTopK(wider));
            accepted = verified(hits, request.embedderId());
            if (accepted.size() < request.topK() && hits.size() >= wider) {
                recallReduced.set(true);
            }
        }
        List<ScoredChunk> result = accepted.size() > request.topK() ? accepted.subList(0, request.topK()) : accepted;
        returned.addAndGet(result.size());
        return List.copyOf(result);
    }

    private List<ScoredChunk> verified(List<ScoredChunk> hits, String embedderId) {
        List<ScoredChunk> accepted = new ArrayList<>(hits.size());
        Map<String, Integer> versions = activeVersionsOf(hits.stream().map(ScoredChunk::chunk).toList());
        int dropped = 0;
        for (ScoredChunk hit : hits) {
            if (belongs(hit.chunk(), embedderId) && isActiveVersion(hit.chunk(), versions)) {
                accepted.add(hit);
            } else {
                dropped++;
            }
        }
        examined.addAndGet(hits.size());
        rejected.addAndGet(dropped);
        return accepted;
    }

    /**
     * The active versions of the chunks' documents. Each document is asked of the oracle once per guard (one request):
     * a hybrid's legs and an over-fetch cost one control-plane read per new document, not one per search, and every
     * search of one request is judged by the same answer.
     */
    private Map<String, Integer> activeVersionsOf(List<Chunk> chunks) {
        if (activeVersions == null || chunks.isEmpty()) {
            return Map.of();
        }
        List<String> unknown = chunks.stream().map(Chunk::documentId).distinct().filter(id -> !knownVersions.containsKey(id)).toList();
        if (!unknown.isEmpty()) {
            Map<String, Integer> answer = activeVersions.apply(unknown);
            for (String id : unknown) {
                Integer active = answer.get(id);
                knownVersions.put(id, active == null ? NO_ACTIVE_VERSION : active);
            }
        }
        return knownVersions;
    }

    private boolean isActiveVersion(Chunk chunk, Map<String, Integer> versions) {
        if (activeVersions == null) {
            return true;
        }
        Integer active = versions.get(chunk.documentId());
        Object version = chunk.metadata().get(ReservedKeys.VERSION);
        return active != null && active != NO_ACTIVE_VERSION && version instanceof Number n && n.intValue() == active;
    }

    @Override
    public List<Chunk> documentChunks(Namespace ns, String documentId) {
        requireBound(ns);
        List<Chunk> chunks = delegate.documentChunks(namespace, documentId);
        Map<String, Integer> versions = activeVersionsOf(chunks);
        List<Chunk> kept = chunks.stream().filter(c -> belongs(c, null) && isActiveVersion(c, versions)).toList();
        examined.addAndGet(chunks.size());
        rejected.addAndGet(chunks.size() - kept.size());
        return kept;
    }

    @Override
    public ChunkPage list(Namespace ns, String afterId, int limit) {
        requireBound(ns);
        ChunkPage page = delegate.list(namespace, afterId, limit);
        List<Chunk> kept = page.chunks().stream().filter(c -> belongs(c, null)).toList();
        rejected.addAndGet(page.chunks().size() - kept.size());
        return new ChunkPage(kept, page.nextAfterId());
    }

    @Override
    public void upsert(Namespace ns, List<EmbeddedChunk> chunks) {
        requireBound(ns);
        for (EmbeddedChunk chunk : chunks) {
            if (!belongs(chunk.chunk(), null)) {
                throw new IllegalStateException("refusing to write chunk '" + chunk.chunk().id() + "' not stamped for namespace " + namespace);
            }
        }
        delegate.upsert(namespace, chunks);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return delegate.capabilities();
    }

    @Override
    public int deleteChunks(Namespace ns, Collection<String> chunkIds) {
        requireBound(ns);
        return delegate.deleteChunks(namespace, chunkIds);
    }

    @Override
    public int deleteDocument(Namespace ns, String documentId) {
        requireBound(ns);
        return delegate.deleteDocument(namespace, documentId);
    }

    @Override
    public int deleteWhere(Namespace ns, MetadataFilter filter) {
        requireBound(ns);
        return delegate.deleteWhere(namespace, filter);
    }

    @Override
    public void deleteNamespace(Namespace ns) {
        requireBound(ns);
        delegate.deleteNamespace(namespace);
    }

    @Override
    public long count(Namespace ns, MetadataFilter filter) {
        requireBound(ns);
        return delegate.count(namespace, filter);
    }

    @Override
    public Optional<Map<String, float[]>> storedVectors(Namespace ns, Collection<String> chunkIds) {
        requireBound(ns);
        return delegate.storedVectors(namespace, chunkIds);
    }

    @Override
    public String consistencyToken(Namespace ns) {
        requireBound(ns);
        return delegate.consistencyToken(namespace);
    }

    @Override
    public void checkHealth() {
        delegate.checkHealth();
    }

    /** The shared store outlives the request: closing the guard closes nothing. */
    @Override
    public void close() {}

    private void requireBound(Namespace ns) {
        if (!namespace.equals(ns)) {
            throw new IllegalStateException("store bound to namespace " + namespace + " was asked for " + ns);
        }
    }
}
