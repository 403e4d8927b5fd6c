package io.corpora.rerank.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class InputOrderFusionTest {

    @Test
    void agreementKeepsTheInputOrder() {
        double[] fused = InputOrderFusion.fuse(new double[] {0.9, 0.8, 0.7});
        assertTrue(fused[0] > fused[1] && fused[1] > fused[2]);
        assertEquals(2.0 / 61, fused[0], 1e-12);
    }

    @Test
    void eachOrderContributesOneReciprocalRank() {
        // Input order a, b, c; score order c, a, b.
        double[] fused = InputOrderFusion.fuse(new double[] {0.5, 0.1, 0.9});
        assertArrayEquals(new double[] {1.0 / 61 + 1.0 / 62, 1.0 / 62 + 1.0 / 63, 1.0 / 63 + 1.0 / 61}, fused, 1e-12);
        assertTrue(fused[0] > fused[2] && fused[2] > fused[1], "a first (1st + 2nd), then c (3rd + 1st), then b");
    }

    @Test
    void tiedScoresRankInInputOrder() {
        double[] fused = InputOrderFusion.fuse(new double[] {0.3, 0.3});
        assertArrayEquals(new double[] {2.0 / 61, 2.0 / 62}, fused, 1e-12);
        assertEquals(0, InputOrderFusion.fuse(new double[0]).length);
    }
}
