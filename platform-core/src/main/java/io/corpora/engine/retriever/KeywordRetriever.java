package io.corpora.engine.retriever;

import io.corpora.spi.Namespace;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;

/**
 * Lexical retrieval through the store's {@link io.corpora.spi.store.SearchMode#KEYWORD} leg: the store owns the
 * analysis and the scoring (the Lucene store: BM25 with Lucene's analyzers and configurable k1/b), so the engine
 * never tokenizes text itself. Scores are the store's raw relevance (higher is better); the floor is pushed down.
 */
public final class KeywordRetriever implements Retriever {

    static final String LEG = "keyword";

    private final StoreLeg leg;
    private final String embedderId;

    /**
     * @param embedderId restricts the search to one embedding generation (so a hybrid's legs see the same chunks);
     *                   null for a keyword-only corpus
     */
    public KeywordRetriever(VectorStore store, Namespace namespace, String embedderId) {
        this.leg = new StoreLeg(LEG, store, namespace, StoreCapability.KEYWORD_SEARCH);
        this.embedderId = embedderId;
    }

    public KeywordRetriever(VectorStore store, Namespace namespace) {
        this(store, namespace, null);
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        StoreLeg.requireQuery(query);
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder();
        SearchRequest request = SearchRequest.keyword(query, options.topK(), options.filter(), options.minScore(), embedderId)
                .withConsistencyToken(options.consistencyToken());
        return leg.run(request, options, diagnostics);
    }
}
