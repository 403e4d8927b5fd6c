package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import java.util.List;

/**
 * How a hybrid retrieval merges its legs' rankings into one: {@link ReciprocalRankFusion} (ranks only) or
 * {@link ConvexFusion} (normalised scores). A passage found by several legs appears once, reinforced.
 */
public interface Fusion {

    /**
     * @param legs    each leg's passages, best first, with the leg's own scores
     * @param weights one non-negative finite weight per leg
     * @return the fused passages, best first, each carrying its fused score; ties broken by id so the order is total
     */
    List<Passage> fuse(List<List<Passage>> legs, double[] weights);

    /** A short stable description for diagnostics and configuration fingerprints, e.g. {@code rrf(k=60)}. */
    String describe();

    /** Whether the fused score is a rank statistic (no similarity floor can apply) rather than a score blend. */
    default boolean rankBased() {
        return true;
    }

    static void requireWeights(List<List<Passage>> legs, double[] weights) {
        if (weights.length != legs.size()) {
            throw new IllegalArgumentException(weights.length + " weights for " + legs.size() + " legs");
        }
        for (double w : weights) {
            if (!(w >= 0) || !Double.isFinite(w)) {
                throw new IllegalArgumentException("fusion weight must be a non-negative finite number, got " + w);
            }
        }
    }
}
