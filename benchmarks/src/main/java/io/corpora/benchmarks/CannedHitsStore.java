package io.corpora.benchmarks;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchMode;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A store whose searches answer from hit lists prepared beforehand, at the cost of a sub-list: a benchmark over it
 * times what Corpora does around a store call, not the engine's search (bin/corpora bench measures that, beside the
 * raw engine). Read-only: a write or a listing is refused, since no benchmark should depend on one.
 */
final class CannedHitsStore implements VectorStore {

    private final List<ScoredChunk> vectorHits;
    private final List<ScoredChunk> keywordHits;

    /** @param vectorHits the vector search's hits, best first; {@code keywordHits} the keyword search's */
    CannedHitsStore(List<ScoredChunk> vectorHits, List<ScoredChunk> keywordHits) {
        this.vectorHits = List.copyOf(vectorHits);
        this.keywordHits = List.copyOf(keywordHits);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.KEYWORD_SEARCH);
    }

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        List<ScoredChunk> hits = request.mode() == SearchMode.KEYWORD ? keywordHits : vectorHits;
        return hits.subList(0, Math.min(request.topK(), hits.size()));
    }

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        throw readOnly();
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        throw readOnly();
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        throw readOnly();
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        throw readOnly();
    }

    @Override
    public void deleteNamespace(Namespace namespace) {
        throw readOnly();
    }

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        throw readOnly();
    }

    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        throw readOnly();
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        return vectorHits.size();
    }

    @Override
    public void close() {}

    private static UnsupportedOperationException readOnly() {
        return new UnsupportedOperationException("a benchmark's canned store only searches");
    }
}
