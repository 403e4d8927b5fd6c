package {{package}};

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
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A starting point that already passes the contract: an exact search over chunks kept in memory, one sorted map per
 * namespace, every method under the store's lock so a reader never sees half of a batch (the contract checks that). Replace each method's body with calls to your backend, keeping what the contract checks: every call is
 * scoped to its {@link Namespace} (never crossing tenants or partitions), scores follow {@link VectorSimilarity}, the
 * {@code _embedder} fingerprint filter of a request is honoured, and ids page in order.
 */
final class {{Class}}VectorStore implements VectorStore {

    private final VectorSimilarity metric;
    private final int dimension;
    private final Map<Namespace, NavigableMap<String, EmbeddedChunk>> namespaces = new HashMap<>();

    {{Class}}VectorStore(VectorSimilarity metric, int dimension) {
        this.metric = metric;
        this.dimension = dimension;
    }

    @Override
    public Set<StoreCapability> capabilities() {
        // Declare only what you implement: the engine falls back (e.g. vector-only retrieval) for the rest.
        return EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN);
    }

    private NavigableMap<String, EmbeddedChunk> in(Namespace namespace) {
        return namespaces.computeIfAbsent(namespace, n -> new TreeMap<>());
    }

    @Override
    public synchronized void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        // Validate the whole batch before writing any of it: a refused batch leaves the namespace unchanged.
        chunks.stream().filter(c -> c.hasEmbedding() && c.embedding().length != dimension).findFirst().ifPresent(c -> {
            throw new IllegalArgumentException("chunk '" + c.chunk().id() + "' has " + c.embedding().length
                    + " dimensions; this store holds " + dimension);
        });
        chunks.forEach(c -> in(namespace).put(c.chunk().id(), c));
    }

    @Override
    public synchronized List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        if (request.mode() != SearchMode.VECTOR) {
            throw new UnsupportedOperationException("{{name}} serves vector search only");
        }
        if (request.vector().length != dimension) {
            throw new IllegalArgumentException("query has " + request.vector().length + " dimensions; this store holds " + dimension);
        }
        return in(namespace).values().stream()
                .filter(c -> c.hasEmbedding() && request.filter().matches(c.chunk().metadata()))
                .filter(c -> request.embedderId() == null || request.embedderId().equals(c.chunk().metadata().get(ReservedKeys.EMBEDDER)))
                .map(c -> new ScoredChunk(c.chunk(), metric.score(request.vector(), c.embedding()), null))
                .filter(hit -> request.minScore() == null || hit.score() >= request.minScore())
                .sorted(Comparator.comparingDouble(ScoredChunk::score).reversed().thenComparing(hit -> hit.chunk().id()))
                .limit(request.topK())
                .toList();
    }

    @Override
    public synchronized int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        return (int) Set.copyOf(chunkIds).stream().filter(id -> in(namespace).remove(id) != null).count();
    }

    @Override
    public synchronized int deleteDocument(Namespace namespace, String documentId) {
        return removeIf(namespace, c -> c.chunk().documentId().equals(documentId));
    }

    @Override
    public synchronized int deleteWhere(Namespace namespace, MetadataFilter filter) {
        return removeIf(namespace, c -> filter.matches(c.chunk().metadata()));
    }

    private int removeIf(Namespace namespace, Predicate<EmbeddedChunk> doomed) {
        List<String> ids = in(namespace).values().stream().filter(doomed).map(c -> c.chunk().id()).toList();
        return deleteChunks(namespace, ids);
    }

    @Override
    public synchronized void deleteNamespace(Namespace namespace) {
        namespaces.remove(namespace);
    }

    @Override
    public synchronized List<Chunk> documentChunks(Namespace namespace, String documentId) {
        return in(namespace).values().stream().map(EmbeddedChunk::chunk)
                .filter(c -> c.documentId().equals(documentId)).sorted(Comparator.comparingInt(Chunk::index)).toList();
    }

    @Override
    public synchronized ChunkPage list(Namespace namespace, String afterId, int limit) {
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be at least 1, got " + limit);
        }
        NavigableMap<String, EmbeddedChunk> rest = afterId == null ? in(namespace) : in(namespace).tailMap(afterId, false);
        List<Chunk> page = rest.values().stream().limit(limit + 1L).map(EmbeddedChunk::chunk).toList();
        return page.size() <= limit ? new ChunkPage(page, null) : new ChunkPage(page.subList(0, limit), page.get(limit - 1).id());
    }

    @Override
    public synchronized long count(Namespace namespace, MetadataFilter filter) {
        return in(namespace).values().stream().filter(c -> filter.matches(c.chunk().metadata())).count();
    }

    @Override
    public synchronized void close() {
        namespaces.clear();
    }
}
