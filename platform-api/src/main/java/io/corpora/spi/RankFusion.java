package io.corpora.spi;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reciprocal rank fusion (Cormack, Clarke &amp; Büttcher, 2009): {@code score(d) = Σ w_i / (k + rank_i(d))},
 * rank 1-based. Ids are deduplicated, so one id found by several rankings is reinforced.
 * A fused score is a rank statistic, not a similarity.
 *
 * <p>No bundled plugin calls it (the engine's hybrid retriever does); it is in the SPI so that a store fusing its own
 * legs server-side, or a reranker mixing rankings, scores exactly as the engine does: one formula, not one per plugin.
 */
public final class RankFusion {

    public static final double DEFAULT_K = 60;

    private RankFusion() {}

    /** One fused id with its RRF score. */
    public record Fused(String id, double score) {}

    public static List<Fused> reciprocalRank(List<List<String>> rankings) {
        return reciprocalRank(rankings, null, DEFAULT_K);
    }

    /**
     * @param rankings ids best first; a duplicate id inside one ranking counts at its best rank only
     * @param weights  one non-negative weight per ranking, or null for all 1
     * @param k        the RRF constant, &gt; 0
     * @return ids by descending fused score, ties broken by id so the order is total and stable
     */
    public static List<Fused> reciprocalRank(List<List<String>> rankings, double[] weights, double k) {
        if (!(k > 0) || !Double.isFinite(k)) {
            throw new IllegalArgumentException("RRF k must be a positive finite number, got " + k);
        }
        if (weights != null && weights.length != rankings.size()) {
            throw new IllegalArgumentException(weights.length + " weights for " + rankings.size() + " rankings");
        }
        // Each id's terms are summed in ascending order, not in the rankings' order: floating-point addition is not
        // associative, and two ids with the same terms in other orders would differ in the last bit, which the tie
        // on id then could not break the same way for every order of the legs.
        Map<String, List<Double>> terms = new LinkedHashMap<>();
        for (int r = 0; r < rankings.size(); r++) {
            double weight = weights == null ? 1 : weights[r];
            if (!(weight >= 0) || !Double.isFinite(weight)) {
                throw new IllegalArgumentException("RRF weight must be a non-negative finite number, got " + weight);
            }
            Set<String> seen = new HashSet<>();
            int rank = 0;
            for (String id : rankings.get(r)) {
                rank++;
                if (seen.add(id)) {
                    terms.computeIfAbsent(id, unused -> new ArrayList<>(rankings.size())).add(weight / (k + rank));
                }
            }
        }
        List<Fused> fused = new ArrayList<>(terms.size());
        terms.forEach((id, idTerms) -> fused.add(new Fused(id, ascendingSum(idTerms))));
        fused.sort(Comparator.comparingDouble(Fused::score).reversed().thenComparing(Fused::id));
        return fused;
    }

    private static double ascendingSum(List<Double> terms) {
        if (terms.size() > 1) {
            terms.sort(null);
        }
        double sum = 0;
        for (double term : terms) {
            sum += term;
        }
        return sum;
    }
}
