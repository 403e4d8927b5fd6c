package io.corpora.spi;

/** Vector primitives every embedder, store and reranker needs. Plain loops: the JIT vectorises them. */
public final class VectorMath {

    private VectorMath() {}

    /** Cosine similarity in [-1, 1]; 0 when either vector is all zeros. */
    public static double cosineSimilarity(float[] a, float[] b) {
        requireSameWidth(a, b);
        double dot = 0;
        double normA = 0;
        double normB = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
            normA += (double) a[i] * a[i];
            normB += (double) b[i] * b[i];
        }
        if (normA == 0 || normB == 0) {
            return 0;
        }
        double cos = dot / (Math.sqrt(normA) * Math.sqrt(normB));
        return Math.max(-1, Math.min(1, cos));
    }

    public static double dotProduct(float[] a, float[] b) {
        requireSameWidth(a, b);
        double dot = 0;
        for (int i = 0; i < a.length; i++) {
            dot += (double) a[i] * b[i];
        }
        return dot;
    }

    public static double squaredEuclideanDistance(float[] a, float[] b) {
        requireSameWidth(a, b);
        double sum = 0;
        for (int i = 0; i < a.length; i++) {
            double d = (double) a[i] - b[i];
            sum += d * d;
        }
        return sum;
    }

    /** A new L2-normalised copy; a zero vector is returned unchanged (as a copy). */
    public static float[] l2Normalize(float[] v) {
        double norm = 0;
        for (float x : v) {
            norm += (double) x * x;
        }
        float[] out = v.clone();
        if (norm == 0) {
            return out;
        }
        double inv = 1.0 / Math.sqrt(norm);
        for (int i = 0; i < out.length; i++) {
            out[i] = (float) (out[i] * inv);
        }
        return out;
    }

    private static void requireSameWidth(float[] a, float[] b) {
        if (a.length != b.length) {
            throw new IllegalArgumentException("vector widths differ: " + a.length + " vs " + b.length);
        }
    }
}
