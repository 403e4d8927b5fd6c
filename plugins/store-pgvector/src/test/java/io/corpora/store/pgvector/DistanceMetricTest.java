package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.VectorMath;
import io.corpora.spi.VectorSimilarity;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The mapping from pgvector distances to the score contract, and its inverse that turns {@code minScore} into a
 * distance bound (no database: the operators' definitions are d = 1 - cos, d = |a - b|, d = -dot).
 */
class DistanceMetricTest {

    private static double pgDistance(DistanceMetric metric, float[] a, float[] b) {
        return switch (metric) {
            case COSINE -> 1 - VectorMath.cosineSimilarity(a, b);
            case L2 -> Math.sqrt(VectorMath.squaredEuclideanDistance(a, b));
            case INNER -> -VectorMath.dotProduct(a, b);
        };
    }

    @Test
    void distancesMapOntoTheVectorSimilarityScores() {
        Random random = new Random(3);
        for (DistanceMetric metric : DistanceMetric.values()) {
            for (int i = 0; i < 500; i++) {
                float[] a = vector(random);
                float[] b = vector(random);
                assertEquals(metric.similarity.score(a, b), metric.score(pgDistance(metric, a, b)), 1e-12, metric + " score");
            }
        }
    }

    @Test
    void theDistanceBoundKeepsExactlyTheScoresAboveTheFloor() {
        Random random = new Random(4);
        for (DistanceMetric metric : DistanceMetric.values()) {
            for (int i = 0; i < 2000; i++) {
                double distance = switch (metric) {
                    case COSINE -> random.nextDouble() * 2;
                    case L2 -> random.nextDouble() * 5;
                    case INNER -> random.nextDouble() * 10 - 5;
                };
                double floor = random.nextDouble() * 3 - 0.5;
                boolean kept = metric.score(distance) >= floor;
                double bound = metric.maxDistance(floor);
                // Away from the boundary itself, the SQL bound and the score test agree.
                if (Math.abs(distance - bound) > 1e-9) {
                    assertEquals(kept, distance <= bound, metric + " d=" + distance + " floor=" + floor + " bound=" + bound);
                }
            }
        }
    }

    @Test
    void floorsOutsideTheScoreRangeKeepAllOrNothing() {
        assertEquals(Double.POSITIVE_INFINITY, DistanceMetric.L2.maxDistance(0));
        assertEquals(Double.POSITIVE_INFINITY, DistanceMetric.INNER.maxDistance(-1));
        assertTrue(DistanceMetric.L2.maxDistance(1.5) < 0, "no distance scores above 1 under l2");
        assertTrue(DistanceMetric.COSINE.maxDistance(1.01) < 0, "no distance scores above 1 under cosine");
        assertEquals(VectorSimilarity.COSINE, DistanceMetric.of("cosine").similarity);
    }

    @Test
    void extensionVersionsAreComparedNumerically() {
        assertTrue(PgVectorStore.versionAtLeast("0.8.0", 0, 8));
        assertTrue(PgVectorStore.versionAtLeast("0.10.1", 0, 8));
        assertTrue(PgVectorStore.versionAtLeast("1.0", 0, 8));
        assertFalse(PgVectorStore.versionAtLeast("0.7.4", 0, 8));
        assertFalse(PgVectorStore.versionAtLeast("garbage", 0, 8));
    }

    private static float[] vector(Random random) {
        float[] v = new float[8];
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) random.nextGaussian();
        }
        return v;
    }
}
