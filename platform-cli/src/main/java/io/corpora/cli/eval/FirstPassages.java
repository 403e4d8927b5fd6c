package io.corpora.cli.eval;

import io.corpora.engine.retriever.RetrievalResult;
import io.corpora.engine.retriever.Retriever;
import io.corpora.spi.RetrieveOptions;

/**
 * A leg's first {@code n} passages, whatever depth it was asked for: the server's hybrid fuses legs of
 * {@code HybridRetriever.DEFAULT_FETCH_TOP_K} chunks, while the evaluation retrieves deeper (for Recall@100); cutting
 * the same memoised leg results measures the fusion as served without running the legs again.
 */
final class FirstPassages implements Retriever {

    private final Retriever leg;
    private final int n;

    FirstPassages(Retriever leg, int n) {
        this.leg = leg;
        this.n = n;
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        RetrievalResult all = leg.retrieve(query, options);
        return all.passages().size() <= n ? all : new RetrievalResult(all.passages().subList(0, n), all.diagnostics());
    }
}
