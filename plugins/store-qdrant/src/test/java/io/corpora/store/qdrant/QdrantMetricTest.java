package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.VectorSimilarity;
import io.corpora.testkit.TestVectors;
import io.qdrant.client.grpc.Collections.Distance;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The metric mapping and score normalisation against what Qdrant documents it returns, so {@code minScore} means in Qdrant
 * exactly what it means in the Lucene and pgvector stores.
 *
 * <p>Qdrant's side, as the tests model it: Cosine — "the first step is to normalize the vector when adding it to the
 * collection ... the comparison of vectors ... becomes equivalent to dot production"
 * (https://qdrant.tech/documentation/search/search/#metrics); Euclid — the score is {@code score.abs().sqrt()} of the
 * internal negated squared distance, i.e. the Euclidean distance ({@code EuclidMetric::postprocess},
 * lib/segment/src/spaces/simple.rs in github.com/qdrant/qdrant); {@code score_threshold} "will exclude all results with a
 * score worse than the given ... higher scores of Euclidean metric are considered more distant"
 * (https://qdrant.tech/documentation/search/search/#filtering-results-by-score), a strict comparison
 * ({@code Distance::check_threshold}: {@code score > threshold} for Cosine and Dot, {@code score < threshold} for Euclid,
 * lib/segment/src/types.rs). Qdrant computes in float32, so its scores are modelled in float.
 */
class QdrantMetricTest {

    private static final int DIMENSION = 16;

    @Test
    void eachMetricMapsToItsQdrantDistance() {
        assertSame(Distance.Cosine, QdrantMetric.COSINE.distance);
        assertSame(Distance.Euclid, QdrantMetric.L2.distance);
        assertSame(Distance.Dot, QdrantMetric.INNER.distance);
        for (QdrantMetric metric : QdrantMetric.values()) {
            assertSame(metric, QdrantMetric.of(metric.distance));
            assertSame(metric, QdrantMetric.parse(metric.optionValue));
        }
        assertSame(VectorSimilarity.COSINE, QdrantMetric.COSINE.similarity);
        assertSame(VectorSimilarity.L2, QdrantMetric.L2.similarity);
        assertSame(VectorSimilarity.INNER_PRODUCT, QdrantMetric.INNER.similarity);
    }

    /** The float32 score Qdrant reports for a stored vector and a query, per its documented computation. */
    static float qdrantScore(QdrantMetric metric, float[] stored, float[] query) {
        return switch (metric) {
            case COSINE -> dot(normalized(stored), normalized(query));
            case INNER -> dot(stored, query);
            case L2 -> {
                float squared = 0;
                for (int i = 0; i < stored.length; i++) {
                    float d = stored[i] - query[i];
                    squared += d * d;
                }
                yield (float) Math.sqrt(Math.abs(-squared));
            }
        };
    }

    private static float[] normalized(float[] v) {
        float length = 0;
        for (float x : v) {
            length += x * x;
        }
        length = (float) Math.sqrt(length);
        float[] n = new float[v.length];
        for (int i = 0; i < v.length; i++) {
            n[i] = v[i] / length;
        }
        return n;
    }

    private static float dot(float[] a, float[] b) {
        float sum = 0;
        for (int i = 0; i < a.length; i++) {
            sum += a[i] * b[i];
        }
        return sum;
    }

    /** Unnormalised vectors of several lengths, like the contract suite's, so Dot and Euclid scores span their ranges. */
    private static float[] scaled(TestVectors vectors, int i) {
        float[] v = vectors.next();
        for (int j = 0; j < v.length; j++) {
            v[j] *= 1 + (i % 3);
        }
        return v;
    }

    @Test
    void qdrantScoresBecomeTheContractScoresOfVectorSimilarity() {
        for (QdrantMetric metric : QdrantMetric.values()) {
            TestVectors vectors = new TestVectors(7 + metric.ordinal(), DIMENSION);
            for (int i = 0; i < 500; i++) {
                float[] stored = scaled(vectors, i);
                float[] query = scaled(vectors, i + 1);
                double expected = metric.similarity.score(query, stored);
                double mapped = metric.contractScore(qdrantScore(metric, stored, query));
                assertEquals(expected, mapped, 1e-5 * Math.max(1, Math.abs(expected)), metric + " pair " + i);
            }
        }
    }

    @Test
    void scoresAtTheEdgesOfEachRange() {
        assertEquals(1.0, QdrantMetric.COSINE.contractScore(1), 0);
        assertEquals(0.5, QdrantMetric.COSINE.contractScore(0), 0);
        assertEquals(0.0, QdrantMetric.COSINE.contractScore(-1), 0);
        assertEquals(1.0, QdrantMetric.L2.contractScore(0), 0, "distance 0 is the best L2 score");
        assertEquals(0.5, QdrantMetric.L2.contractScore(1), 0);
        assertEquals(1.0, QdrantMetric.INNER.contractScore(0), 0);
        assertEquals(3.0, QdrantMetric.INNER.contractScore(2), 0);
        assertEquals(1 / 3.0, QdrantMetric.INNER.contractScore(-2), 1e-15);
    }

    /**
     * For random pairs and random floors, the widened threshold lets Qdrant keep every hit whose contract score reaches the
     * floor (Qdrant's comparison is strict and in float32), and keeps nothing clearly below it.
     */
    @Test
    void theThresholdSentKeepsExactlyTheHitsAtOrAboveMinScore() {
        Random random = new Random(11);
        for (QdrantMetric metric : QdrantMetric.values()) {
            TestVectors vectors = new TestVectors(21 + metric.ordinal(), DIMENSION);
            int kept = 0;
            int dropped = 0;
            for (int i = 0; i < 2000; i++) {
                float[] stored = scaled(vectors, i);
                float[] query = scaled(vectors, i + 1);
                float qdrant = qdrantScore(metric, stored, query);
                double contract = metric.contractScore(qdrant);
                // floors around the score itself (the hard cases) and anywhere in the metric's range
                double minScore = i % 2 == 0 ? contract * (1 + (random.nextDouble() - 0.5) * 1e-3) : random.nextDouble() * 1.5;
                QdrantMetric.Threshold threshold = metric.threshold(minScore);
                boolean passesQdrant = !threshold.unreachable() && threshold.widened()
                        .map(t -> threshold.largerBetter() ? qdrant > t : qdrant < t).orElse(true);
                if (contract >= minScore) {
                    assertTrue(passesQdrant, metric + ": a hit scoring " + contract + " >= " + minScore + " was cut by threshold " + threshold);
                    kept++;
                } else if (contract < minScore - 1e-4 * Math.max(1, minScore)) {
                    assertFalse(passesQdrant, metric + ": a hit scoring " + contract + " < " + minScore + " passed threshold " + threshold);
                    dropped++;
                }
            }
            assertTrue(kept > 100 && dropped > 100, metric + ": both sides exercised (" + kept + " kept, " + dropped + " dropped)");
        }
    }

    @Test
    void floorsNoScoreCanMissOrReachSendNothingOrSkipTheCall() {
        for (QdrantMetric metric : QdrantMetric.values()) {
            assertTrue(metric.threshold(0).value() == null && !metric.threshold(0).unreachable(), "every score is > 0: no threshold");
            assertTrue(metric.threshold(-3).widened().isEmpty());
        }
        assertTrue(QdrantMetric.COSINE.threshold(1.01).unreachable(), "cosine scores are at most 1");
        assertTrue(QdrantMetric.L2.threshold(1.01).unreachable(), "L2 scores are at most 1");
        assertFalse(QdrantMetric.INNER.threshold(50).unreachable(), "inner-product scores are unbounded");
        assertEquals(49.0, QdrantMetric.INNER.threshold(50).value(), 1e-12);
        assertEquals(-1.0, QdrantMetric.INNER.threshold(0.5).value(), 1e-12, "score 0.5 is dot -1");
        assertEquals(0.0, QdrantMetric.COSINE.threshold(0.5).value(), 1e-12, "score 0.5 is cos 0");
        assertEquals(1.0, QdrantMetric.L2.threshold(0.5).value(), 1e-12, "score 0.5 is distance 1");
        assertFalse(QdrantMetric.L2.threshold(0.5).largerBetter(), "Euclid keeps distances below the threshold");
        assertTrue(QdrantMetric.L2.threshold(0.5).widened().orElseThrow() > 1.0f, "widened outward: Qdrant's < is strict");
        assertTrue(QdrantMetric.COSINE.threshold(0.5).widened().orElseThrow() < 0.0f);
    }
}
