package io.corpora.spi;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class RankFusionTest {

    private static double scoreOf(List<RankFusion.Fused> fused, String id) {
        return fused.stream().filter(f -> f.id().equals(id)).findFirst().orElseThrow().score();
    }

    /**
     * Ranks 1, 1 and 2 summed in that order and in reverse differ in the last bit (1/61 + 1/61 + 1/62 against
     * 1/62 + 1/61 + 1/61); the fused score must not depend on the order of the rankings.
     */
    @Test
    void aFusedScoreIsTheSameBitForBitWhateverTheOrderOfTheRankings() {
        List<List<String>> rankings = List.of(List.of("a"), List.of("a"), List.of("b", "a"));
        List<List<String>> reversed = new ArrayList<>(rankings);
        Collections.reverse(reversed);
        assertEquals(scoreOf(RankFusion.reciprocalRank(rankings), "a"), scoreOf(RankFusion.reciprocalRank(reversed), "a"), 0.0);
        assertEquals(RankFusion.reciprocalRank(rankings), RankFusion.reciprocalRank(reversed));
    }

    @Test
    void scoresAreTheWeightedSumOfReciprocalRanks() {
        List<RankFusion.Fused> fused = RankFusion.reciprocalRank(List.of(List.of("a", "b"), List.of("b")), new double[] {1, 2}, 60);
        assertEquals(List.of("b", "a"), fused.stream().map(RankFusion.Fused::id).toList());
        assertEquals(1.0 / 62 + 2.0 / 61, scoreOf(fused, "b"), 1e-15);
        assertEquals(1.0 / 61, scoreOf(fused, "a"), 0.0);
    }
}
