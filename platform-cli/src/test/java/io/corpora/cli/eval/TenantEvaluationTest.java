package io.corpora.cli.eval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.corpora.cli.UsageException;
import org.junit.jupiter.api.Test;

class TenantEvaluationTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void candidatesAreModesOrFusionsOfTheHybridMode() throws Exception {
        assertEquals(JSON.readTree("{\"mode\": \"vector\"}"), TenantEvaluation.candidate("vector"));
        assertEquals(JSON.readTree("{\"mode\": \"hybrid\", \"fusion\": {\"method\": \"convex\", \"alpha\": 0.6, \"normalization\": \"zscore\"}}"),
                TenantEvaluation.candidate("convex-zscore:0.6"));
        assertEquals(JSON.readTree("{\"mode\": \"hybrid\", \"fusion\": {\"method\": \"rrf\", \"k\": 20.0, \"vectorWeight\": 2.0, \"keywordWeight\": 1.0}}"),
                TenantEvaluation.candidate("rrf:20:2:1"));
        assertThrows(UsageException.class, () -> TenantEvaluation.candidate("bm42"));
    }

    @Test
    void theTablePrintsTheServersNumbersAndItsComparisonWithTheRegressedQueries() throws Exception {
        var current = JSON.readTree("""
                {"id": "ev-2", "created": "2026-12-01T11:00:00Z", "recallAt": 5, "judgedSet": {"queries": 2, "judgements": 3},
                 "actor": {"subject": "ada", "groups": ["support"], "partition": null}, "recommendation": "keyword", "regression": true,
                 "candidates": [
                  {"label": "keyword", "ndcg10": 0.45, "recall": 0.5, "mrr10": 0.5, "failedQueries": 1,
                   "comparison": {"previous": "ev-1", "ndcg10Delta": -0.45, "recallDelta": -0.5, "mrr10Delta": -0.5, "maxDrop": 0.01,
                                  "regression": true, "worse": [{"queryId": "q1", "before": 1.0, "after": 0.1}]}},
                  {"label": "vector", "ndcg10": 0.7, "recall": 0.9, "mrr10": 0.8, "failedQueries": 0, "comparison": null}]}""");

        String table = TenantEvaluation.table("acme", current);

        assertEquals("""
                evaluation  ev-2 of tenant acme (2026-12-01T11:00:00Z), 2 judged queries, 3 judgements
                actor       ada, groups ["support"], partition default
                previous    ev-1

                candidate   nDCG@10    Recall@5    MRR@10  failed  vs previous
                keyword      0.4500      0.5000    0.5000       1     -0.4500  REGRESSION
                vector       0.7000      0.9000    0.8000       0           -

                recommended keyword (apply: POST …/evaluations/ev-2:apply; nothing changes until then)
                REGRESSION  keyword: nDCG@10 0.9000 → 0.4500 (fell 0.4500, more than 0.0100)
                            query q1: 1.0000 → 0.1000""", table);
    }
}
