package io.corpora.retrieval.evaluation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.retrieval.evaluation.RunComparison.Change;
import io.corpora.retrieval.evaluation.RunComparison.Scores;
import io.corpora.retrieval.evaluation.RunComparison.WorseQuery;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunComparisonTest {

    private static Scores scores(String label, double ndcg, double recall, double mrr, Map<String, Double> perQuery) {
        return new Scores(label, ndcg, recall, mrr, perQuery);
    }

    @Test
    void aFallBeyondTheToleranceIsARegressionWithEveryDeltaAndTheQueriesThatFellMostFirst() {
        Scores before = scores("vector", 0.80, 0.90, 0.75, Map.of("q1", 1.0, "q2", 0.6, "q3", 0.8, "q4", 0.8));
        Scores after = scores("vector", 0.70, 0.85, 0.80, Map.of("q1", 0.5, "q2", 0.5, "q3", 0.9, "q4", 0.8, "q5", 0.0));

        List<Change> changes = RunComparison.compare(List.of(after), "ev-1", List.of(before), RunComparison.DEFAULT_MAX_DROP);

        Change change = changes.get(0);
        assertTrue(change.regression());
        assertTrue(RunComparison.regressed(changes));
        assertEquals("ev-1", change.previousRun());
        assertEquals(-0.10, change.ndcg10Delta(), 1e-12);
        assertEquals(-0.05, change.recallDelta(), 1e-12);
        assertEquals(0.05, change.mrr10Delta(), 1e-12);
        assertEquals(0.01, change.maxDrop());
        // q3 rose, q4 held and q5 is new: only q1 (−0.5) and q2 (−0.1) got worse, the larger fall first
        assertEquals(List.of(new WorseQuery("q1", 1.0, 0.5), new WorseQuery("q2", 0.6, 0.5)), change.worse());
    }

    @Test
    void aFallOfExactlyTheToleranceAGainAndANewCandidateAreNoRegression() {
        List<Scores> previous = List.of(scores("keyword", 0.6000, 1, 1, Map.of()), scores("vector", 0.7000, 1, 1, Map.of()));
        List<Scores> current = List.of(scores("keyword", 0.5900, 1, 1, Map.of()), scores("vector", 0.7500, 1, 1, Map.of()),
                scores("hybrid convex(minmax,alpha=0.6)", 0.2, 1, 1, Map.of()));

        List<Change> changes = RunComparison.compare(current, "ev-1", previous, 0.01);

        assertFalse(RunComparison.regressed(changes), "a fall of exactly the tolerance (0.6 − 0.59 in doubles) is not beyond it");
        assertEquals(-0.01, changes.get(0).ndcg10Delta(), 1e-9);
        assertEquals(0.05, changes.get(1).ndcg10Delta(), 1e-9);
        assertNull(changes.get(2), "a candidate the previous run did not have is not compared");
        assertTrue(RunComparison.compare(current, "ev-1", previous, 0.005).get(0).regression(), "a tighter tolerance flags the same fall");
        assertEquals(java.util.Arrays.asList(null, null, null), RunComparison.compare(current, null, List.of(), 0.0),
                "no previous run: nothing to compare");
        assertThrows(IllegalArgumentException.class, () -> RunComparison.compare(current, "ev-1", previous, -0.1));
    }

    @Test
    void atMostTenWorsenedQueriesAreListed() {
        Map<String, Double> before = new HashMap<>();
        Map<String, Double> after = new HashMap<>();
        for (int i = 0; i < 15; i++) {
            before.put("q" + i, 1.0);
            after.put("q" + i, 1.0 - (i + 1) / 100.0); // q14 fell most
        }
        Change change = RunComparison.compare(List.of(scores("hybrid", 0.5, 1, 1, after)), "ev-1", List.of(scores("hybrid", 0.9, 1, 1, before)), 0.01)
                .get(0);
        assertEquals(RunComparison.WORSE_QUERIES_SHOWN, change.worse().size());
        assertEquals("q14", change.worse().get(0).queryId());
        assertEquals("q5", change.worse().get(9).queryId());
    }
}
