package io.corpora.testkit;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchMode;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Optional;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * An exact, in-memory store that is the contract written as code: it proves {@link VectorStoreContract} is
 * satisfiable and serves as a reference when a real store disagrees. Vector search only; not for production.
 */
public final class ReferenceVectorStore implements VectorStore {

    private final VectorSimilarity metric;
    private final int dimension;
    private final Map<Namespace, TreeMap<String, EmbeddedChunk>> namespaces = new ConcurrentHashMap<>();

    public ReferenceVectorStore(VectorSimilarity metric, int dimension) {
        this.metric = metric;
        this.dimension = dimension;
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN, StoreCapability.RETURNS_EMBEDDINGS);
    }

    private TreeMap<String, EmbeddedChunk> chunks(Namespace namespace) {
        return namespaces.computeIfAbsent(namespace, ns -> new TreeMap<>());
    }

    @Override
    public synchronized void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        for (EmbeddedChunk chunk : chunks) {
            if (chunk.hasEmbedding() && chunk.embedding().length != dimension) {
                throw new IllegalArgumentException("chunk '" + chunk.chunk().id() + "' has " + chunk.embedding().length
                        + " dimensions; the store holds " + dimension);
            }
        }
        for (EmbeddedChunk chunk : chunks) {
            chunks(namespace).put(chunk.chunk().id(), chunk);
        }
    }

    @Override
    public synchronized List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        if (request.mode() != SearchMode.VECTOR) {
            throw new UnsupportedOperationException("the reference store serves vector search only");
        }
        float[] query = request.vector();
        if (query.length != dimension) {
            throw new IllegalArgumentException("query vector has " + query.length + " dimensions; the store holds " + dimension);
        }
        List<ScoredChunk> hits = new ArrayList<>();
        for (EmbeddedChunk e : chunks(namespace).values()) {
            Map<String, Object> metadata = e.chunk().metadata();
            if (!e.hasEmbedding() || !request.filter().matches(metadata)
                    || request.embedderId() != null && !request.embedderId().equals(metadata.get(ReservedKeys.EMBEDDER))) {
                continue;
            }
            double score = metric.score(query, e.embedding());
            if (request.minScore() == null || score >= request.minScore()) {
                hits.add(new ScoredChunk(e.chunk(), score, request.includeEmbeddings() ? e.embedding() : null));
            }
        }
        hits.sort(Comparator.comparingDouble(ScoredChunk::score).reversed().thenComparing(h -> h.chunk().id()));
        return List.copyOf(hits.subList(0, Math.min(request.topK(), hits.size())));
    }

    @Override
    public synchronized int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        int deleted = 0;
        for (String id : Set.copyOf(chunkIds)) {
            deleted += chunks(namespace).remove(id) == null ? 0 : 1;
        }
        return deleted;
    }

    @Override
    public synchronized int deleteDocument(Namespace namespace, String documentId) {
        return removeIf(namespace, e -> e.chunk().documentId().equals(documentId));
    }

    @Override
    public synchronized int deleteWhere(Namespace namespace, MetadataFilter filter) {
        return removeIf(namespace, e -> filter.matches(e.chunk().metadata()));
    }

    private int removeIf(Namespace namespace, java.util.function.Predicate<EmbeddedChunk> test) {
        int before = chunks(namespace).size();
        chunks(namespace).values().removeIf(test);
        return before - chunks(namespace).size();
    }

    @Override
    public synchronized void deleteNamespace(Namespace namespace) {
        namespaces.remove(namespace);
    }

    @Override
    public synchronized Optional<Map<String, float[]>> storedVectors(Namespace namespace, Collection<String> chunkIds) {
        Map<String, float[]> vectors = new LinkedHashMap<>();
        TreeMap<String, EmbeddedChunk> chunks = namespaces.getOrDefault(namespace, new TreeMap<>());
        for (String id : chunkIds) {
            EmbeddedChunk chunk = chunks.get(id);
            if (chunk != null && chunk.hasEmbedding()) {
                vectors.put(id, chunk.embedding());
            }
        }
        return Optional.of(vectors);
    }

    @Override
    public synchronized List<Chunk> documentChunks(Namespace namespace, String documentId) {
        return chunks(namespace).values().stream().map(EmbeddedChunk::chunk)
                .filter(c -> c.documentId().equals(documentId)).sorted(Comparator.comparingInt(Chunk::index)).toList();
    }

    @Override
    public synchronized ChunkPage list(Namespace namespace, String afterId, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        }
        Map<String, EmbeddedChunk> tail = afterId == null ? chunks(namespace) : chunks(namespace).tailMap(afterId, false);
        List<Chunk> page = tail.values().stream().limit(limit + 1L).map(EmbeddedChunk::chunk).toList();
        return page.size() > limit
                ? new ChunkPage(page.subList(0, limit), page.get(limit - 1).id())
                : new ChunkPage(page, null);
    }

    @Override
    public synchronized long count(Namespace namespace, MetadataFilter filter) {
        return chunks(namespace).values().stream().filter(e -> filter.matches(e.chunk().metadata())).count();
    }

    @Override
    public void close() {}

    @Override
    public String toString() {
        return "ReferenceVectorStore[" + metric.name().toLowerCase(Locale.ROOT) + ", " + dimension + "d, "
                + new LinkedHashMap<>(namespaces).size() + " namespaces]";
    }
}
