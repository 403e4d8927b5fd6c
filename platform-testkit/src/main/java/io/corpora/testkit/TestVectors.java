package io.corpora.testkit;

import io.corpora.spi.VectorSimilarity;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Deterministic test vectors and the brute-force oracle a store's vector search is compared with.
 * Components are uniform in [-1, 1) and never all zero, so every metric (including cosine) is defined.
 */
public final class TestVectors {

    private final Random random;
    private final int dimension;

    public TestVectors(long seed, int dimension) {
        this.random = new Random(seed);
        this.dimension = dimension;
    }

    public float[] next() {
        float[] v = new float[dimension];
        do {
            for (int i = 0; i < dimension; i++) {
                v[i] = random.nextFloat() * 2 - 1;
            }
        } while (isZero(v));
        return v;
    }

    private static boolean isZero(float[] v) {
        for (float x : v) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }

    /** One exact hit: an id and its contract score. */
    public record Exact(String id, double score) {}

    /** Every candidate scored under the metric, best first, ties by id (the contract order). */
    public static List<Exact> exactRanking(VectorSimilarity metric, float[] query, Map<String, float[]> candidates) {
        List<Exact> all = new ArrayList<>(candidates.size());
        candidates.forEach((id, vector) -> all.add(new Exact(id, metric.score(query, vector))));
        all.sort(Comparator.comparingDouble(Exact::score).reversed().thenComparing(Exact::id));
        return all;
    }
}
