package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.store.ScoredChunk;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Diversity selection over a vector search: fetches {@code fetchTopK} hits with their stored vectors, picks topK
 * of them by {@link MaximalMarginalRelevance}, and returns the picked set in rank order (by their similarity
 * scores, so the score contract holds). When the store returns no vectors, the plain top-K is returned and the
 * diagnostics say so.
 */
public final class MmrRetriever implements Retriever {

    static final String STAGE = "mmr";

    private final VectorRetriever vectors;
    private final MaximalMarginalRelevance mmr;
    private final int fetchTopK;

    public MmrRetriever(VectorRetriever vectors, double lambda, int fetchTopK) {
        this.vectors = Objects.requireNonNull(vectors, "vectors");
        this.mmr = new MaximalMarginalRelevance(lambda);
        if (fetchTopK < 1 || fetchTopK > RetrieveOptions.MAX_TOP_K) {
            throw new IllegalArgumentException("MMR fetchTopK must be 1.." + RetrieveOptions.MAX_TOP_K + ", got " + fetchTopK);
        }
        this.fetchTopK = fetchTopK;
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        StoreLeg.requireQuery(query);
        RetrievalDiagnostics.Builder diagnostics = RetrievalDiagnostics.builder().embedderId(vectors.embedderId());
        float[] queryVector = vectors.embedQuery(query, diagnostics);
        List<ScoredChunk> hits = vectors.hitsWithEmbeddings(queryVector, ResultShaper.inner(options, fetchTopK), diagnostics);
        List<MaximalMarginalRelevance.Candidate> candidates = new ArrayList<>();
        List<Passage> ranked = new ArrayList<>();
        boolean allHaveVectors = true;
        for (ScoredChunk hit : hits) {
            Passage passage = Passages.fromHit(hit);
            if (options.minScore() != null && passage.score() < options.minScore()) {
                diagnostics.refuse(new Refusal(passage.id(), Refusal.Reason.BELOW_FLOOR, passage.score(), passage.text().length(), 0));
                continue;
            }
            ranked.add(passage);
            if (hit.embedding() == null || hit.embedding().length == 0) {
                allHaveVectors = false;
            } else {
                candidates.add(new MaximalMarginalRelevance.Candidate(passage, hit.embedding()));
            }
        }
        List<Passage> selected;
        long start = System.nanoTime();
        if (allHaveVectors) {
            selected = mmr.select(queryVector, candidates, options.topK()).stream().map(MaximalMarginalRelevance.Candidate::passage).toList();
        } else {
            diagnostics.note("MMR skipped: the store returned no stored vectors; plain similarity order kept");
            selected = ranked;
        }
        diagnostics.leg(STAGE, selected.size(), start);
        List<Passage> shaped = ResultShaper.shape(Passages.ranked(selected), options.withMinScore(null), false, diagnostics);
        return new RetrievalResult(shaped, diagnostics.build());
    }
}
