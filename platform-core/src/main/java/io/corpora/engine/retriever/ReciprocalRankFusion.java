package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import io.corpora.spi.RankFusion;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** Weighted reciprocal rank fusion, {@code Σ w_i / (k + rank_i)}, through the SPI's {@link RankFusion}. */
public record ReciprocalRankFusion(double k) implements Fusion {

    public ReciprocalRankFusion {
        if (!(k > 0) || !Double.isFinite(k)) {
            throw new IllegalArgumentException("RRF k must be a positive finite number, got " + k);
        }
    }

    @Override
    public List<Passage> fuse(List<List<Passage>> legs, double[] weights) {
        Fusion.requireWeights(legs, weights);
        List<List<String>> rankings = new ArrayList<>();
        Map<String, Passage> byId = new HashMap<>();
        for (List<Passage> leg : legs) {
            rankings.add(leg.stream().map(Passage::id).toList());
            leg.forEach(p -> byId.putIfAbsent(p.id(), p));
        }
        List<Passage> fused = new ArrayList<>();
        for (RankFusion.Fused f : RankFusion.reciprocalRank(rankings, weights, k)) {
            fused.add(byId.get(f.id()).withScore(f.score()));
        }
        return fused;
    }

    @Override
    public String describe() {
        return "rrf(k=" + FusionSpec.number(k) + ")";
    }
}
