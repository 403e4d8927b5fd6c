package io.corpora.retrieval.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Hand-computed trec_eval values. */
class RetrievalMetricsTest {

    private static final Map<String, Integer> QRELS = Map.of("d1", 1, "d2", 2, "d9", 0);

    @Test
    void ndcgUsesGradedGainsAndTheIdealOrder() {
        // ranking d3, d1, d2: DCG = 1/log2(3) + 2/log2(4) = 0.63093 + 1; IDCG = 2/log2(2) + 1/log2(3) = 2.63093
        double expected = (1 / (Math.log(3) / Math.log(2)) + 1.0) / (2 + 1 / (Math.log(3) / Math.log(2)));
        assertEquals(expected, RetrievalMetrics.ndcg(List.of("d3", "d1", "d2"), QRELS, 10), 1e-12);
        assertEquals(1.0, RetrievalMetrics.ndcg(List.of("d2", "d1"), QRELS, 10), 1e-12);
        assertEquals(0.0, RetrievalMetrics.ndcg(List.of(), QRELS, 10), "no hits scores 0");
        assertEquals(0.0, RetrievalMetrics.ndcg(List.of("d3", "d2"), QRELS, 1), "cut at k");
    }

    @Test
    void recallCountsOnlyPositiveRelevance() {
        assertEquals(0.5, RetrievalMetrics.recall(List.of("d9", "d2", "d3"), QRELS, 100));
        assertEquals(0.0, RetrievalMetrics.recall(List.of("d3", "d2"), QRELS, 1));
    }

    @Test
    void reciprocalRankOfTheFirstRelevantWithinK() {
        assertEquals(1.0 / 3, RetrievalMetrics.reciprocalRank(List.of("d9", "d3", "d1", "d2"), QRELS, 10), 1e-12);
        assertEquals(0.0, RetrievalMetrics.reciprocalRank(List.of("d9", "d3", "d1"), QRELS, 2));
    }

    @Test
    void tiedGradesAndMissingQrels() {
        // two grade-2 documents tie in the ideal order; either order of them is ideal
        Map<String, Integer> ties = Map.of("a", 2, "b", 2, "c", 1);
        assertEquals(1.0, RetrievalMetrics.ndcg(List.of("b", "a", "c"), ties, 10), 1e-12);
        assertEquals(1.0, RetrievalMetrics.ndcg(List.of("a", "b", "c"), ties, 10), 1e-12);
        // c first: DCG = 1 + 2/log2(3) + 2/log2(4) = 1 + 1.26186 + 1; IDCG = 2 + 2/log2(3) + 1/log2(4) = 2 + 1.26186 + 0.5
        double log3 = Math.log(3) / Math.log(2);
        assertEquals((1 + 2 / log3 + 1) / (2 + 2 / log3 + 0.5), RetrievalMetrics.ndcg(List.of("c", "a", "b"), ties, 10), 1e-12);
        // a query whose qrels judge nothing relevant (only grade 0, or none) scores 0 everywhere, never NaN
        assertEquals(0.0, RetrievalMetrics.ndcg(List.of("x"), Map.of("x", 0), 10));
        assertEquals(0.0, RetrievalMetrics.recall(List.of("x"), Map.of(), 100));
        assertEquals(0.0, RetrievalMetrics.reciprocalRank(List.of("x"), Map.of(), 10));
        // an unjudged retrieved document counts as not relevant
        assertEquals(0.5, RetrievalMetrics.reciprocalRank(List.of("unjudged", "a"), ties, 10), 1e-12);
    }
}
