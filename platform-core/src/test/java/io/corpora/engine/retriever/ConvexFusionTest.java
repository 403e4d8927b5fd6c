package io.corpora.engine.retriever;

import static io.corpora.engine.retriever.FixedRetriever.passage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConvexFusionTest {

    private static final List<Passage> KEYWORD = List.of(passage("a", 12.0), passage("b", 8.0), passage("c", 2.0));
    private static final List<Passage> VECTOR = List.of(passage("c", 0.90), passage("d", 0.80), passage("a", 0.70));

    @Test
    void minMaxBlendsNormalisedScoresWithAlphaOnTheVectorLeg() {
        // keyword a 1, b 0.6, c 0; vector c 1, d 0.5, a 0; a missing id takes its leg's floor (0)
        List<Passage> fused = new ConvexFusion(ConvexFusion.Normalization.MIN_MAX).fuse(List.of(VECTOR, KEYWORD), new double[] {0.75, 0.25});
        assertEquals(List.of("c", "d", "a", "b"), fused.stream().map(Passage::id).toList());
        assertEquals(0.75, fused.get(0).score(), 1e-12);
        assertEquals(0.375, fused.get(1).score(), 1e-12);
        assertEquals(0.25, fused.get(2).score(), 1e-12);
        assertEquals(0.15, fused.get(3).score(), 1e-12);
        assertEquals("text of c", fused.get(0).text());
    }

    @Test
    void weightsAreScaledToSumOne() {
        ConvexFusion fusion = new ConvexFusion(ConvexFusion.Normalization.MIN_MAX);
        List<Passage> a = fusion.fuse(List.of(VECTOR, KEYWORD), new double[] {3, 1});
        List<Passage> b = fusion.fuse(List.of(VECTOR, KEYWORD), new double[] {0.75, 0.25});
        assertEquals(a, b);
    }

    @Test
    void zScoreUsesMeanAndPopulationDeviationPerLeg() {
        // keyword mean 22/3, sd sqrt(((14/3)^2 + (2/3)^2 + (16/3)^2) / 3)
        double mean = 22.0 / 3;
        double sd = Math.sqrt((Math.pow(12 - mean, 2) + Math.pow(8 - mean, 2) + Math.pow(2 - mean, 2)) / 3);
        var normalised = new ConvexFusion(ConvexFusion.Normalization.Z_SCORE).normalise(KEYWORD);
        assertEquals((12 - mean) / sd, normalised.get("a"), 1e-12);
        assertEquals((2 - mean) / sd, normalised.get("c"), 1e-12);
        List<Passage> onlyKeyword = new ConvexFusion(ConvexFusion.Normalization.Z_SCORE).fuse(List.of(VECTOR, KEYWORD), new double[] {0, 1});
        assertEquals("a", onlyKeyword.get(0).id());
        assertEquals((2 - mean) / sd, onlyKeyword.stream().filter(p -> p.id().equals("d")).findFirst().orElseThrow().score(), 1e-12,
                "an id the leg did not return takes the leg's lowest normalised score");
    }

    @Test
    void flatLegsAndTiesAreDeterministic() {
        List<Passage> flat = List.of(passage("y", 1.0), passage("x", 1.0));
        List<Passage> fused = new ConvexFusion(ConvexFusion.Normalization.MIN_MAX).fuse(List.of(flat), new double[] {1});
        assertEquals(List.of("x", "y"), fused.stream().map(Passage::id).toList(), "equal scores break by id");
        assertEquals(1.0, fused.get(0).score());
        assertEquals(0.0, new ConvexFusion(ConvexFusion.Normalization.Z_SCORE).fuse(List.of(flat), new double[] {1}).get(0).score());
    }

    @Test
    void refusesAllZeroOrBadWeights() {
        ConvexFusion fusion = new ConvexFusion(ConvexFusion.Normalization.MIN_MAX);
        assertThrows(IllegalArgumentException.class, () -> fusion.fuse(List.of(VECTOR, KEYWORD), new double[] {0, 0}));
        assertThrows(IllegalArgumentException.class, () -> fusion.fuse(List.of(VECTOR, KEYWORD), new double[] {1}));
        assertThrows(IllegalArgumentException.class, () -> fusion.fuse(List.of(VECTOR, KEYWORD), new double[] {1, Double.NaN}));
    }

    @Test
    void aHybridRetrieverFusesByTheTenantsSpec() {
        FixedRetriever vector = new FixedRetriever("vector", VECTOR);
        FixedRetriever keyword = new FixedRetriever("keyword", KEYWORD);
        RetrievalResult convex = HybridRetriever.of(FusionSpec.convex("minmax", 0.75), vector, keyword, 10).retrieve("q", RetrieveOptions.topK(2));
        assertEquals(List.of("c", "d"), convex.ids());
        RetrievalResult keywordOnlyRrf = HybridRetriever.of(FusionSpec.rrf(60, 0, 1), vector, keyword, 10).retrieve("q", RetrieveOptions.topK(2));
        assertEquals(List.of("a", "b"), keywordOnlyRrf.ids(), "a zero RRF weight silences the leg");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> HybridRetriever.of(FusionSpec.convex("zscore", 0.5),
                vector, keyword, 10).retrieve("q", RetrieveOptions.topK(2).withMinScore(0.1)));
        assertTrue(e.getMessage().contains("blend of normalised scores, not a similarity"), e.getMessage());
    }
}
