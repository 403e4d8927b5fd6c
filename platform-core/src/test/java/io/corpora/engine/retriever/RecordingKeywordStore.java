package io.corpora.engine.retriever;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * A test input for the keyword retriever's delegation: it answers every keyword search with fixed hits (in the
 * order given, which may break the contract on purpose) and records each request. Real BM25 is the Lucene
 * store's, measured by the eval command.
 */
final class RecordingKeywordStore implements VectorStore {

    private final List<ScoredChunk> hits;
    final List<SearchRequest> requests = new ArrayList<>();
    final List<Namespace> namespaces = new ArrayList<>();

    RecordingKeywordStore(List<ScoredChunk> hits) {
        this.hits = List.copyOf(hits);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return EnumSet.of(StoreCapability.KEYWORD_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN);
    }

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        namespaces.add(namespace);
        requests.add(request);
        return hits;
    }

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        throw new UnsupportedOperationException("read-only test store");
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        throw new UnsupportedOperationException("read-only test store");
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        throw new UnsupportedOperationException("read-only test store");
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        throw new UnsupportedOperationException("read-only test store");
    }

    @Override
    public void deleteNamespace(Namespace namespace) {
        throw new UnsupportedOperationException("read-only test store");
    }

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        return List.of();
    }

    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        return new ChunkPage(List.of(), null);
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        return hits.size();
    }

    @Override
    public void close() {}
}
