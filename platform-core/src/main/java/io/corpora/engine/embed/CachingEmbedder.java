package io.corpora.engine.embed;

import io.corpora.spi.embed.Embedder;
import java.util.List;

/** One tenant's embedder whose single queries go through the shared {@link QueryEmbeddingCache}; documents never do. */
final class CachingEmbedder extends ForwardingEmbedder {

    private final QueryEmbeddingCache cache;
    private final String scope;

    CachingEmbedder(Embedder delegate, QueryEmbeddingCache cache, String scope) {
        super(delegate);
        this.cache = cache;
        this.scope = scope;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return delegate.embedDocuments(texts);
    }

    @Override
    public float[] embedQuery(String query) {
        return cache.embedQuery(scope, delegate, query);
    }

    /** A batch keeps its one model call (that is its point); its vectors are not cached. */
    @Override
    public List<float[]> embedQueries(List<String> queries) {
        return delegate.embedQueries(queries);
    }
}
