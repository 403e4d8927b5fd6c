package io.corpora.cli.eval;

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
    void percentilesAreNearestRank() {
        double[] values = {5, 1, 4, 2, 3};
        assertEquals(3, EvalReport.percentile(values, 50));
        assertEquals(5, EvalReport.percentile(values, 99));
        assertEquals(0, EvalReport.percentile(new double[0], 50));
    }
}
