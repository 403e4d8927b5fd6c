package io.corpora.retrieval.evaluation;

import java.util.List;
import java.util.Map;

/**
 * Per-query ranking metrics computed as {@code trec_eval} does (the BEIR convention): graded gains from the
 * qrels, relevant means relevance &gt; 0, and a query that retrieved nothing scores 0.
 */
public final class RetrievalMetrics {

    private RetrievalMetrics() {}

    /** nDCG@k with gain = relevance and discount log2(rank + 1); the ideal ranking sorts the qrels by relevance. */
    public static double ndcg(List<String> ranking, Map<String, Integer> relevance, int k) {
        double dcg = 0;
        for (int i = 0; i < Math.min(k, ranking.size()); i++) {
            int gain = relevance.getOrDefault(ranking.get(i), 0);
            if (gain > 0) {
                dcg += gain / log2(i + 2);
            }
        }
        List<Integer> ideal = relevance.values().stream().filter(g -> g > 0).sorted((a, b) -> b - a).toList();
        double idcg = 0;
        for (int i = 0; i < Math.min(k, ideal.size()); i++) {
            idcg += ideal.get(i) / log2(i + 2);
        }
        return idcg == 0 ? 0 : dcg / idcg;
    }

    /** The share of relevant documents within the first k. */
    public static double recall(List<String> ranking, Map<String, Integer> relevance, int k) {
        long relevant = relevance.values().stream().filter(g -> g > 0).count();
        if (relevant == 0) {
            return 0;
        }
        long found = ranking.stream().limit(k).filter(id -> relevance.getOrDefault(id, 0) > 0).count();
        return (double) found / relevant;
    }

    /** 1 / rank of the first relevant document within the first k; 0 when none. */
    public static double reciprocalRank(List<String> ranking, Map<String, Integer> relevance, int k) {
        for (int i = 0; i < Math.min(k, ranking.size()); i++) {
            if (relevance.getOrDefault(ranking.get(i), 0) > 0) {
                return 1.0 / (i + 1);
            }
        }
        return 0;
    }

    private static double log2(double x) {
        return Math.log(x) / Math.log(2);
    }
}
