package io.corpora.engine.embed;

import io.corpora.spi.embed.Embedder;
import java.util.List;

/** One tenant's embedder whose document batches go through the {@link DocumentEmbeddingCache}; queries never do. */
final class DocumentCachingEmbedder extends ForwardingEmbedder {

    private final DocumentEmbeddingCache cache;
    private final DiskEmbeddingCache.Space space;

    DocumentCachingEmbedder(Embedder delegate, DocumentEmbeddingCache cache, DiskEmbeddingCache.Space space) {
        super(delegate);
        this.cache = cache;
        this.space = space;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return cache.embedDocuments(space, delegate, texts);
    }

    @Override
    public float[] embedQuery(String query) {
        return delegate.embedQuery(query);
    }

    @Override
    public List<float[]> embedQueries(List<String> queries) {
        return delegate.embedQueries(queries);
    }
}
