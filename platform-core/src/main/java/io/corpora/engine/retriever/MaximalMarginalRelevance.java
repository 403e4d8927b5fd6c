package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import io.corpora.spi.VectorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Maximal marginal relevance (Carbonell &amp; Goldstein, 1998): repeatedly pick the candidate maximising
 * {@code λ·sim(query, d) − (1−λ)·max sim(d, selected)}, cosine similarities. λ = 1 is pure relevance,
 * λ = 0 pure diversity. Ties go to the earlier (better-ranked) candidate, so the result is deterministic.
 */
public final class MaximalMarginalRelevance {

    /** A candidate passage with its stored vector. */
    public record Candidate(Passage passage, float[] embedding) {
        public Candidate {
            Objects.requireNonNull(passage, "passage");
            Objects.requireNonNull(embedding, "embedding of passage");
        }
    }

    private final double lambda;

    public MaximalMarginalRelevance(double lambda) {
        if (!(lambda >= 0 && lambda <= 1)) {
            throw new IllegalArgumentException("MMR lambda must be in [0, 1], got " + lambda);
        }
        this.lambda = lambda;
    }

    /** Up to {@code k} candidates in selection order. */
    public List<Candidate> select(float[] query, List<Candidate> candidates, int k) {
        List<Candidate> remaining = new ArrayList<>(candidates);
        List<Candidate> selected = new ArrayList<>();
        double[] relevance = new double[remaining.size()];
        for (int i = 0; i < remaining.size(); i++) {
            relevance[i] = VectorMath.cosineSimilarity(query, remaining.get(i).embedding());
        }
        double[] maxSimilarityToSelected = new double[remaining.size()];
        java.util.Arrays.fill(maxSimilarityToSelected, Double.NEGATIVE_INFINITY);
        boolean[] taken = new boolean[remaining.size()];
        while (selected.size() < Math.min(k, remaining.size())) {
            int best = -1;
            double bestValue = Double.NEGATIVE_INFINITY;
            for (int i = 0; i < remaining.size(); i++) {
                if (taken[i]) {
                    continue;
                }
                double redundancy = selected.isEmpty() ? 0 : maxSimilarityToSelected[i];
                double value = lambda * relevance[i] - (1 - lambda) * redundancy;
                if (value > bestValue) {
                    bestValue = value;
                    best = i;
                }
            }
            taken[best] = true;
            Candidate chosen = remaining.get(best);
            selected.add(chosen);
            for (int i = 0; i < remaining.size(); i++) {
                if (!taken[i]) {
                    maxSimilarityToSelected[i] = Math.max(maxSimilarityToSelected[i],
                            VectorMath.cosineSimilarity(remaining.get(i).embedding(), chosen.embedding()));
                }
            }
        }
        return selected;
    }
}
