package io.corpora.engine.retriever;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class FusionSpecTest {

    @Test
    void parsesTheCommandLineLabels() {
        assertEquals(FusionSpec.rrf(60, 1, 1), FusionSpec.parse("rrf"));
        assertEquals(FusionSpec.rrf(20, 1.5, 1), FusionSpec.parse("rrf:20:1.5:1"));
        assertEquals(FusionSpec.convex("zscore", 0.3), FusionSpec.parse("convex-zscore:0.3"));
        assertEquals("convex(minmax,alpha=0.7)", FusionSpec.parse("convex-minmax:0.7").describe());
        assertEquals("rrf(k=60,v=1,kw=1)", FusionSpec.parse("rrf").describe());
        assertEquals("convex(zscore,alpha=0.6)", FusionSpec.STANDARD.describe(), "the shipped default");
    }

    @Test
    void weightsFollowTheMethod() {
        FusionSpec convex = FusionSpec.convex("minmax", 0.7);
        assertEquals(0.7, convex.weight("vector"), 1e-12);
        assertEquals(0.3, convex.weight("keyword"), 1e-12);
        assertInstanceOf(ConvexFusion.class, convex.fusion());
        FusionSpec rrf = FusionSpec.rrf(10, 2, 0.5);
        assertEquals(2, rrf.weight("vector"));
        assertEquals(0.5, rrf.weight("keyword"));
        assertEquals(new ReciprocalRankFusion(10), rrf.fusion());
    }

    @Test
    void refusesOutOfRangeValuesWithTheFieldName() {
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.convex("minmax", 1.5)).getMessage().contains("fusion.alpha"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.rrf(0, 1, 1)).getMessage().contains("fusion.k"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.rrf(60, 0, 0)).getMessage().contains("fusion.weights"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.rrf(60, -1, 1)).getMessage().contains("fusion.weights.vector"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.convex("l2", 0.5)).getMessage().contains("normalization"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.parse("borda")).getMessage().contains("unknown fusion"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.parse("convex-minmax")).getMessage().contains("needs an alpha"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> FusionSpec.parse("rrf:x")).getMessage().contains("not a number"));
    }
}
