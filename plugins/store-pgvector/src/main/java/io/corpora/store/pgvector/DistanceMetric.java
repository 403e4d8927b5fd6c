package io.corpora.store.pgvector;

import io.corpora.spi.VectorSimilarity;

/**
 * A pgvector distance operator and its mapping onto Corpora's score contract ({@link VectorSimilarity}),
 * including the inverse mapping that turns {@code minScore} into a distance bound usable in {@code WHERE}.
 */
enum DistanceMetric {

    /** {@code <=>} is 1 - cos, so score = (1 + cos) / 2 = 1 - d / 2. */
    COSINE("cosine", "<=>", "vector_cosine_ops", VectorSimilarity.COSINE) {
        @Override
        double score(double distance) {
            return VectorSimilarity.fromCosine(1 - distance);
        }

        @Override
        double maxDistance(double minScore) {
            return 2 * (1 - minScore);
        }
    },
    /** {@code <->} is the Euclidean distance, so score = 1 / (1 + d²). */
    L2("l2", "<->", "vector_l2_ops", VectorSimilarity.L2) {
        @Override
        double score(double distance) {
            return VectorSimilarity.fromSquaredDistance(distance * distance);
        }

        @Override
        double maxDistance(double minScore) {
            if (minScore <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            return minScore > 1 ? -1 : Math.sqrt(1 / minScore - 1);
        }
    },
    /** {@code <#>} is the negated inner product, so dot = -d and score = dot < 0 ? 1 / (1 - dot) : dot + 1. */
    INNER("inner", "<#>", "vector_ip_ops", VectorSimilarity.INNER_PRODUCT) {
        @Override
        double score(double distance) {
            return VectorSimilarity.fromInnerProduct(-distance);
        }

        @Override
        double maxDistance(double minScore) {
            if (minScore <= 0) {
                return Double.POSITIVE_INFINITY;
            }
            double minDot = minScore < 1 ? 1 - 1 / minScore : minScore - 1;
            return -minDot;
        }
    };

    final String optionValue;
    final String operator;
    final String opclass;
    final VectorSimilarity similarity;

    DistanceMetric(String optionValue, String operator, String opclass, VectorSimilarity similarity) {
        this.optionValue = optionValue;
        this.operator = operator;
        this.opclass = opclass;
        this.similarity = similarity;
    }

    /** The contract score of a pgvector distance of this metric. */
    abstract double score(double distance);

    /**
     * The largest distance whose score is still {@code >= minScore} (positive infinity: no bound; a value no
     * distance can reach: nothing qualifies).
     */
    abstract double maxDistance(double minScore);

    static DistanceMetric of(String optionValue) {
        for (DistanceMetric metric : values()) {
            if (metric.optionValue.equals(optionValue)) {
                return metric;
            }
        }
        throw new IllegalArgumentException("unknown metric '" + optionValue + "'; expected cosine, l2 or inner");
    }
}
