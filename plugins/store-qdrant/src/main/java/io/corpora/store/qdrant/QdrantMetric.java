package io.corpora.store.qdrant;

import io.corpora.spi.VectorSimilarity;
import io.qdrant.client.grpc.Collections.Distance;
import java.util.Arrays;
import java.util.Optional;

/**
 * A Corpora metric, its Qdrant distance, and the two translations between Qdrant's scores and the contract scores of
 * {@link VectorSimilarity}, so {@code minScore} means the same in every store.
 *
 * <p>What Qdrant returns (its {@code Distance::postprocess_score}): Cosine — the cosine (vectors are normalised on
 * upload, then dot-multiplied); Dot — the dot product; Euclid — the Euclidean distance, smaller is better. Its
 * {@code score_threshold} keeps scores strictly better than the threshold (above it for Cosine and Dot, below it for
 * Euclid). Qdrant computes in float32, so a threshold is widened by {@link #SLACK} and the exact floor is applied to
 * the converted scores afterwards.
 */
enum QdrantMetric {

    /** score = (1 + cos) / 2, so cos = 2·score − 1. */
    COSINE("cosine", Distance.Cosine, VectorSimilarity.COSINE, 1) {
        @Override
        double contractScore(double qdrantScore) {
            return VectorSimilarity.fromCosine(qdrantScore);
        }

        @Override
        Threshold bound(double minScore) {
            return Threshold.atLeast(2 * minScore - 1);
        }
    },
    /** score = 1 / (1 + d²) of the Euclidean distance d Qdrant returns, so d = √(1/score − 1). */
    L2("l2", Distance.Euclid, VectorSimilarity.L2, 1) {
        @Override
        double contractScore(double qdrantScore) {
            return VectorSimilarity.fromSquaredDistance(qdrantScore * qdrantScore);
        }

        @Override
        Threshold bound(double minScore) {
            return Threshold.atMost(Math.sqrt(1 / minScore - 1));
        }
    },
    /** score = dot < 0 ? 1 / (1 − dot) : dot + 1, increasing in dot, so dot = score < 1 ? 1 − 1/score : score − 1. */
    INNER("inner", Distance.Dot, VectorSimilarity.INNER_PRODUCT, Double.POSITIVE_INFINITY) {
        @Override
        double contractScore(double qdrantScore) {
            return VectorSimilarity.fromInnerProduct(qdrantScore);
        }

        @Override
        Threshold bound(double minScore) {
            return Threshold.atLeast(minScore < 1 ? 1 - 1 / minScore : minScore - 1);
        }
    };

    /** How far a threshold is widened against float32 rounding (relative, at least this absolute). */
    static final double SLACK = 1e-5;

    final String optionValue;
    final Distance distance;
    final VectorSimilarity similarity;
    /** The best contract score the metric can give: a floor above it matches nothing. */
    private final double maxScore;

    QdrantMetric(String optionValue, Distance distance, VectorSimilarity similarity, double maxScore) {
        this.optionValue = optionValue;
        this.distance = distance;
        this.similarity = similarity;
        this.maxScore = maxScore;
    }

    /** The contract score of a score Qdrant returned for this distance. */
    abstract double contractScore(double qdrantScore);

    /** The bound in Qdrant's units of a floor in (0, maxScore]. */
    abstract Threshold bound(double minScore);

    /**
     * The {@code score_threshold} that keeps every hit scoring at least {@code minScore} (before widening): none for a
     * floor every score clears (scores are positive), unreachable for one above the metric's best score.
     */
    Threshold threshold(double minScore) {
        if (minScore <= 0) {
            return Threshold.NONE;
        }
        return minScore > maxScore ? Threshold.UNREACHABLE : bound(minScore);
    }

    /** The metric of an option value ({@code cosine}, {@code l2}, {@code inner}, or another spelling VectorSimilarity knows). */
    static QdrantMetric parse(String optionValue) {
        return of(VectorSimilarity.parse(optionValue));
    }

    static QdrantMetric of(VectorSimilarity similarity) {
        return Arrays.stream(values()).filter(m -> m.similarity == similarity).findFirst().orElseThrow();
    }

    static QdrantMetric of(Distance distance) {
        return Arrays.stream(values()).filter(m -> m.distance == distance).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("Qdrant distance " + distance + " has no Corpora metric"));
    }

    /**
     * What to send as {@code score_threshold}: nothing, a value, or nothing at all since no score can reach the floor.
     *
     * @param value        the bound in Qdrant's units, before widening
     * @param largerBetter whether Qdrant keeps scores above it (Cosine, Dot) or below it (Euclid)
     */
    record Threshold(Double value, boolean largerBetter, boolean unreachable) {
        static final Threshold NONE = new Threshold(null, true, false);
        static final Threshold UNREACHABLE = new Threshold(null, true, true);

        static Threshold atLeast(double value) {
            return new Threshold(value, true, false);
        }

        static Threshold atMost(double value) {
            return new Threshold(value, false, false);
        }

        /** The value to send, widened by {@link #SLACK} toward the side Qdrant excludes (its comparison is strict). */
        Optional<Float> widened() {
            if (value == null) {
                return Optional.empty();
            }
            double slack = SLACK * Math.max(1, Math.abs(value));
            return Optional.of((float) (largerBetter ? value - slack : value + slack));
        }
    }
}
