package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.RetrieveOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class HybridRetrieverTest {

    @Test
    void fusesByReciprocalRankAndReinforcesIdsFoundByBothLegs() {
        FixedRetriever keyword = FixedRetriever.ranking("keyword", "a", "b", "c");
        FixedRetriever vector = FixedRetriever.ranking("vector", "c", "d", "a");
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("keyword", keyword), HybridRetriever.Leg.of("vector", vector)));
        RetrievalResult result = hybrid.retrieve("q", RetrieveOptions.topK(4));
        // a: 1/61 + 1/63, c: 1/63 + 1/61 (tie, by id), b: 1/62, d: 1/62 (tie, by id)
        assertEquals(List.of("a", "c", "b", "d"), result.ids());
        assertEquals(1.0 / 61 + 1.0 / 63, result.passages().get(0).score(), 1e-12);
        assertEquals("text of a", result.passages().get(0).text(), "passages keep their text; only the score is fused");
        assertEquals(3, result.diagnostics().leg("keyword").orElseThrow().candidates());
        assertEquals(3, result.diagnostics().leg("vector").orElseThrow().candidates());
        assertEquals(4, result.diagnostics().leg("fusion").orElseThrow().candidates());
    }

    @Test
    void theTotalTimeCoversTheLegsNotOnlyTheFusion() {
        FixedRetriever keyword = FixedRetriever.ranking("keyword", "a");
        Retriever slowVector = (query, options) -> {
            try {
                Thread.sleep(40);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return FixedRetriever.ranking("vector", "b").retrieve(query, options);
        };
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("keyword", keyword), HybridRetriever.Leg.of("vector", slowVector)));
        double total = hybrid.retrieve("q", RetrieveOptions.topK(2)).diagnostics().totalMillis();
        assertTrue(total >= 40, "totalMillis " + total + " leaves out the 40 ms vector leg");
    }

    @Test
    void theConsistencyTokenReachesEveryLeg() {
        FixedRetriever keyword = FixedRetriever.ranking("keyword", "a");
        FixedRetriever vector = FixedRetriever.ranking("vector", "b");
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("keyword", keyword), HybridRetriever.Leg.of("vector", vector)));
        hybrid.retrieve("q", RetrieveOptions.topK(2).withConsistencyToken("pg:0/16B3748"));
        assertEquals("pg:0/16B3748", keyword.calls.get(0).consistencyToken());
        assertEquals("pg:0/16B3748", vector.calls.get(0).consistencyToken());
    }

    @Test
    void weightsAndKShapeTheFusion() {
        FixedRetriever keyword = FixedRetriever.ranking("keyword", "a", "b");
        FixedRetriever vector = FixedRetriever.ranking("vector", "b", "a");
        HybridRetriever vectorHeavy = new HybridRetriever(List.of(new HybridRetriever.Leg("keyword", keyword, 1, 10),
                new HybridRetriever.Leg("vector", vector, 2, 10)), 10);
        RetrievalResult result = vectorHeavy.retrieve("q", RetrieveOptions.topK(2));
        assertEquals(List.of("b", "a"), result.ids());
        assertEquals(1.0 / 12 + 2.0 / 11, result.passages().get(0).score(), 1e-12);
    }

    @Test
    void eachLegFetchesItsOwnDepthWithoutBudgetOrFloorAndWithTheFilter() {
        FixedRetriever keyword = FixedRetriever.ranking("keyword", "a");
        FixedRetriever vector = FixedRetriever.ranking("vector", "b");
        HybridRetriever hybrid = new HybridRetriever(List.of(new HybridRetriever.Leg("keyword", keyword, 1, 30),
                new HybridRetriever.Leg("vector", vector, 1, 2)));
        MetadataFilter filter = MetadataFilter.eq("lang", "en");
        hybrid.retrieve("q", new RetrieveOptions(5, filter, null, 100));
        assertEquals(30, keyword.calls.get(0).topK());
        assertEquals(5, vector.calls.get(0).topK(), "a leg fetches at least the requested topK");
        assertEquals(filter, vector.calls.get(0).filter());
        assertNull(keyword.calls.get(0).maxChars(), "the budget is spent once, on the fused list");
    }

    @Test
    void minScoreOnFusedScoresIsAnErrorNotANoOp() {
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("k", FixedRetriever.ranking("k", "a"))));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> hybrid.retrieve("q", RetrieveOptions.topK(3).withMinScore(0.5)));
        assertTrue(e.getMessage().contains("rank statistic, not a similarity"), e.getMessage());
    }

    @Test
    void theBudgetAppliesToTheFusedOrder() {
        HybridRetriever hybrid = new HybridRetriever(List.of(HybridRetriever.Leg.of("k", FixedRetriever.ranking("k", "aa", "b", "c"))));
        // each text is "text of <id>": 10, 9, 9 characters
        RetrievalResult result = hybrid.retrieve("q", RetrieveOptions.topK(3).withMaxChars(19));
        assertEquals(List.of("aa", "b"), result.ids());
        Refusal refusal = result.diagnostics().refusals(Refusal.Reason.OVER_BUDGET).get(0);
        assertEquals("c", refusal.passageId());
        assertEquals(19, refusal.charsUsed());
    }

    @Test
    void invalidConfigurationIsRefusedClearly() {
        assertThrows(IllegalArgumentException.class, () -> new HybridRetriever(List.of()));
        Retriever any = FixedRetriever.ranking("k", "a");
        assertThrows(IllegalArgumentException.class, () -> new HybridRetriever.Leg("k", any, -1, 10));
        assertThrows(IllegalArgumentException.class, () -> new HybridRetriever.Leg("k", any, 1, 0));
        assertThrows(IllegalArgumentException.class, () -> new HybridRetriever(List.of(HybridRetriever.Leg.of("k", any)), 0));
    }
}
