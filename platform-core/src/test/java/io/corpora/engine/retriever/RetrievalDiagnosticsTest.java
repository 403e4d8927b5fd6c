package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.RetrieveOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class RetrievalDiagnosticsTest {

    @Test
    void composedRetrievalsReportEveryStageAndLeaveTheServersFieldsOpen() {
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("keyword", FixedRetriever.ranking("keyword", "a", "b")),
                HybridRetriever.Leg.of("vector", FixedRetriever.ranking("vector", "b"))));
        RetrievalDiagnostics d = new RerankingRetriever(hybrid, (q, t) -> new double[t.size()]).retrieve("q", RetrieveOptions.topK(1)).diagnostics();
        assertEquals(List.of("keyword", "vector", "fusion", "rerank"), d.legs().stream().map(LegReport::name).toList());
        assertEquals(2, d.examined());
        assertTrue(d.totalMillis() >= 0);
        assertNull(d.isolation());
        assertNull(d.corpusEmpty());
        RetrievalDiagnostics filled = d.withIsolation(new IsolationReport(8, 1, 1, true))
                .withCorpusEmpty(false);
        assertEquals(1, filled.isolation().rejected());
        assertEquals(false, filled.corpusEmpty());
        assertEquals(d.legs(), filled.legs());
    }

    @Test
    void refusalsAreCountedFullyButListedUpToACap() {
        String[] ids = new String[150];
        for (int i = 0; i < ids.length; i++) {
            ids[i] = String.format("p%03d", i);
        }
        RetrievalResult result = FixedRetriever.ranking("many", ids).retrieve("q", RetrieveOptions.topK(150).withMinScore(2.0));
        assertEquals(150, result.diagnostics().rejected());
        assertEquals(RetrievalDiagnostics.MAX_LISTED_REFUSALS, result.diagnostics().refusals().size());
        assertEquals(List.of(), result.ids());
    }
}
