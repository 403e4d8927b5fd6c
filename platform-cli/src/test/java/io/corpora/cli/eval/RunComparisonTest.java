package io.corpora.cli.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.cli.eval.RunComparison.CandidateScores;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunComparisonTest {

    private static CandidateScores scores(String label, double ndcg, Map<String, Double> perQuery) {
        return new CandidateScores(label, ndcg, 0.9, 0.8, 0, perQuery);
    }

    @Test
    void aFallBeyondTheToleranceIsARegressionListingTheQueriesThatFellMostFirst() {
        CandidateScores before = scores("vector", 0.80, Map.of("q1", 1.0, "q2", 0.6, "q3", 0.8, "q4", 0.8));
        CandidateScores after = scores("vector", 0.70, Map.of("q1", 0.5, "q2", 0.5, "q3", 0.9, "q4", 0.8));

        RunComparison comparison = RunComparison.of(List.of(after), List.of(before), 0.01);

        assertTrue(comparison.regressed());
        RunComparison.Row row = comparison.rows().get(0);
        assertEquals(-0.10, row.ndcgChange(), 1e-12);
        assertEquals(List.of(new RunComparison.Worse("q1", 1.0, 0.5), new RunComparison.Worse("q2", 0.6, 0.5)), row.worse());
    }

    @Test
    void aFallWithinTheToleranceAGainAndANewCandidateAreNoRegression() {
        List<CandidateScores> previous = List.of(scores("keyword", 0.6000, Map.of()), scores("vector", 0.7000, Map.of()));
        List<CandidateScores> current = List.of(scores("keyword", 0.5900, Map.of()), scores("vector", 0.7500, Map.of()),
                scores("hybrid convex(minmax,alpha=0.6)", 0.2, Map.of()));

        RunComparison comparison = RunComparison.of(current, previous, 0.01);

        assertFalse(comparison.regressed(), "a fall of exactly the tolerance is not beyond it");
        assertEquals(-0.01, comparison.rows().get(0).ndcgChange(), 1e-9);
        assertEquals(0.05, comparison.rows().get(1).ndcgChange(), 1e-9);
        assertNull(comparison.rows().get(2).previous());
        assertNull(comparison.rows().get(2).ndcgChange());
        assertTrue(RunComparison.of(current, previous, 0.005).regressed());
        assertFalse(RunComparison.of(current, List.of(), 0.0).regressed(), "no previous run: nothing to regress from");
    }

    @Test
    void scoresAreReadFromTheServersEvaluation() throws Exception {
        var evaluation = new ObjectMapper().readTree("""
                {"id": "ev-1", "candidates": [{"label": "vector", "ndcg10": 0.75, "recall": 0.5, "mrr10": 0.625, "failedQueries": 1,
                  "queries": [{"queryId": "q1", "ndcg10": 1.0}, {"queryId": "q2", "ndcg10": 0.5}]}]}""");

        assertEquals(List.of(new CandidateScores("vector", 0.75, 0.5, 0.625, 1, Map.of("q1", 1.0, "q2", 0.5))),
                CandidateScores.allOf(evaluation));
    }
}
