package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.rerank.Reranker;
import java.util.List;
import org.junit.jupiter.api.Test;

class RerankingRetrieverTest {

    /** A test input: scores a passage by the last character of its id, so the expected order is obvious. */
    private static final Reranker BY_LAST_CHARACTER = (query, texts) -> texts.stream().mapToDouble(t -> t.charAt(t.length() - 1)).toArray();

    private final FixedRetriever base = FixedRetriever.ranking("base", "p1", "p5", "p3", "p9", "p2", "p7");

    @Test
    void overFetchesReordersAndKeepsTopK() {
        RerankingRetriever reranking = new RerankingRetriever(base, BY_LAST_CHARACTER, 5);
        RetrievalResult result = reranking.retrieve("q", RetrieveOptions.topK(2));
        assertEquals(5, base.calls.get(0).topK(), "over-fetched fetchTopK from the base");
        assertEquals(List.of("p9", "p5"), result.ids(), "reordered among the 5 fetched, p7 was never fetched");
        assertFalse(result.diagnostics().degraded());
        assertEquals(5, result.diagnostics().leg("rerank").orElseThrow().candidates());
        assertTrue(Passages.inRankOrder(result.passages()));
    }

    @Test
    void theDefaultOverFetchIsTwenty() {
        new RerankingRetriever(base, BY_LAST_CHARACTER).retrieve("q", RetrieveOptions.topK(3));
        assertEquals(20, base.calls.get(0).topK());
    }

    @Test
    void minScoreFloorsTheRerankerScoresNotTheBaseScores() {
        RerankingRetriever reranking = new RerankingRetriever(base, BY_LAST_CHARACTER, 20);
        RetrievalResult result = reranking.retrieve("q", RetrieveOptions.topK(10).withMinScore((double) '5'));
        assertEquals(List.of("p9", "p7", "p5"), result.ids());
        assertEquals(null, base.calls.get(0).minScore(), "the base is not floored with reranker units");
        assertEquals(3, result.diagnostics().refusals(Refusal.Reason.BELOW_FLOOR).size());
    }

    @Test
    void aFailingRerankerDegradesToTheBaseOrderWithTheReason() {
        Reranker broken = (query, texts) -> {
            throw new IllegalStateException("model file missing");
        };
        RetrievalResult result = new RerankingRetriever(base, broken, 20).retrieve("q", RetrieveOptions.topK(3).withMinScore(1e9));
        assertEquals(List.of("p1", "p5", "p3"), result.ids(), "the answer survives in base order");
        assertTrue(result.diagnostics().degraded());
        assertTrue(result.diagnostics().degradedReason().contains("model file missing"), result.diagnostics().degradedReason());
        assertTrue(result.diagnostics().notes().stream().anyMatch(n -> n.contains("minScore not applied")));
    }

    @Test
    void aRerankerReturningTheWrongNumberOfScoresOrNaNIsAFailureToo() {
        Reranker short1 = (query, texts) -> new double[] {1};
        Reranker nan = (query, texts) -> texts.stream().mapToDouble(t -> Double.NaN).toArray();
        assertTrue(new RerankingRetriever(base, short1).retrieve("q", RetrieveOptions.topK(3)).diagnostics().degraded());
        RetrievalResult result = new RerankingRetriever(base, nan).retrieve("q", RetrieveOptions.topK(3));
        assertTrue(result.diagnostics().degradedReason().contains("non-finite"));
        assertEquals(List.of("p1", "p5", "p3"), result.ids());
    }

    @Test
    void nothingToRerankIsNotAFailure() {
        RetrievalResult result = new RerankingRetriever(new FixedRetriever("empty", List.of()), BY_LAST_CHARACTER).retrieve("q", RetrieveOptions.topK(3));
        assertEquals(List.of(), result.ids());
        assertFalse(result.diagnostics().degraded());
    }
}
