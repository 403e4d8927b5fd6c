package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.rerank.Reranker;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Over-fetches {@code fetchTopK} candidates from any retriever, reorders them with a {@link Reranker}, keeps topK.
 * The floor ({@link RetrieveOptions#minScore()}) applies to the reranker's scores. If the reranker fails (throws,
 * or returns the wrong number of scores or a non-finite one), the base order is returned with
 * {@code degraded = true} and the reason in the diagnostics: never an error that loses the answer, never silently.
 */
public final class RerankingRetriever implements Retriever {

    public static final int DEFAULT_FETCH_TOP_K = 20;
    static final String STAGE = "rerank";

    private final Retriever base;
    private final Reranker reranker;
    private final int fetchTopK;

    public RerankingRetriever(Retriever base, Reranker reranker, int fetchTopK) {
        this.base = Objects.requireNonNull(base, "base");
        this.reranker = Objects.requireNonNull(reranker, "reranker");
        if (fetchTopK < 1 || fetchTopK > RetrieveOptions.MAX_TOP_K) {
            throw new IllegalArgumentException("rerank fetchTopK must be 1.." + RetrieveOptions.MAX_TOP_K + ", got " + fetchTopK);
        }
        this.fetchTopK = fetchTopK;
    }

    public RerankingRetriever(Retriever base, Reranker reranker) {
        this(base, reranker, DEFAULT_FETCH_TOP_K);
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder();
        RetrievalResult candidates = base.retrieve(query, ResultShaper.inner(options, fetchTopK).withMinScore(null));
        diagnostics.absorb(candidates.diagnostics());
        List<Passage> passages = candidates.passages();
        if (passages.isEmpty()) {
            return new RetrievalResult(List.of(), diagnostics.examined(0).build());
        }
        long start = System.nanoTime();
        List<Passage> reranked;
        try {
            reranked = rerank(query, passages);
            diagnostics.leg(STAGE, reranked.size(), start);
        } catch (RuntimeException e) {
            diagnostics.leg(STAGE, 0, start);
            diagnostics.degraded("reranker failed (" + e.getClass().getSimpleName() + ": " + e.getMessage()
                    + "); returned the base order");
            if (options.minScore() != null) {
                diagnostics.note("minScore not applied: it floors reranker scores, and the reranker failed");
            }
            return new RetrievalResult(ResultShaper.shape(passages, options, false, diagnostics), diagnostics.build());
        }
        return new RetrievalResult(ResultShaper.shape(reranked, options, true, diagnostics), diagnostics.build());
    }

    private List<Passage> rerank(String query, List<Passage> passages) {
        double[] scores = reranker.score(query, passages.stream().map(Passage::text).toList());
        if (scores == null || scores.length != passages.size()) {
            throw new IllegalStateException("reranker returned " + (scores == null ? "no" : scores.length) + " scores for "
                    + passages.size() + " passages");
        }
        List<Passage> rescored = new ArrayList<>(passages.size());
        for (int i = 0; i < scores.length; i++) {
            if (!Double.isFinite(scores[i])) {
                throw new IllegalStateException("reranker returned a non-finite score for passage '" + passages.get(i).id() + "'");
            }
            rescored.add(passages.get(i).withScore(scores[i]));
        }
        return Passages.ranked(rescored);
    }
}
