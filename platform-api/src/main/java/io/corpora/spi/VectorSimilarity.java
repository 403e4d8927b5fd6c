package io.corpora.spi;

/**
 * The vector metrics and Corpora's score contract for them: every store turns its raw similarity or
 * distance into a finite score where higher is more relevant, using exactly these functions (they are
 * Lucene's, so the embedded store's scores and the SQL stores' scores agree).
 */
public enum VectorSimilarity {

    /** (1 + cos) / 2, in [0, 1]. */
    COSINE {
        @Override
        public double score(float[] a, float[] b) {
            return fromCosine(VectorMath.cosineSimilarity(a, b));
        }
    },
    /** 1 / (1 + squared L2 distance), in (0, 1]. */
    L2 {
        @Override
        public double score(float[] a, float[] b) {
            return fromSquaredDistance(VectorMath.squaredEuclideanDistance(a, b));
        }
    },
    /** Inner product scaled to be positive and monotonic: dot < 0 ? 1 / (1 - dot) : dot + 1. */
    INNER_PRODUCT {
        @Override
        public double score(float[] a, float[] b) {
            return fromInnerProduct(VectorMath.dotProduct(a, b));
        }
    };

    /** The contract score of two vectors under this metric. */
    public abstract double score(float[] a, float[] b);

    public static double fromCosine(double cosine) {
        return (1 + cosine) / 2;
    }

    public static double fromSquaredDistance(double squaredDistance) {
        return 1 / (1 + squaredDistance);
    }

    public static double fromInnerProduct(double dot) {
        return dot < 0 ? 1 / (1 - dot) : dot + 1;
    }

    /** Parses {@code cosine}, {@code l2} / {@code euclidean}, {@code inner} / {@code dot}, case-insensitively. */
    public static VectorSimilarity parse(String name) {
        return switch (name == null ? "" : name.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "cosine" -> COSINE;
            case "l2", "euclidean" -> L2;
            case "inner", "inner_product", "dot", "dot_product" -> INNER_PRODUCT;
            default -> throw new IllegalArgumentException("unknown metric '" + name + "'; expected cosine, l2 or inner");
        };
    }
}
