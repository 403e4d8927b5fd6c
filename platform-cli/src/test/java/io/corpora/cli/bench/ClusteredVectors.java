package io.corpora.cli.bench;

import io.corpora.spi.VectorMath;
import java.util.SplittableRandom;

/**
 * Synthetic vectors for the profiling harnesses: 64 Gaussian cluster centres in 384 dimensions, and unit vectors near
 * them, so an HNSW graph has structure to walk (nothing embedded, so a harness starts in seconds). Seeded: every run
 * builds the same vectors.
 */
final class ClusteredVectors {

    static final int DIMENSION = 384;
    private static final int CLUSTERS = 64;

    private final SplittableRandom random = new SplittableRandom(19);
    private final float[][] centres = new float[CLUSTERS][];

    ClusteredVectors() {
        for (int c = 0; c < CLUSTERS; c++) {
            centres[c] = gaussian(1.0);
        }
    }

    /** A unit vector near centre {@code i} (modulo the number of clusters). */
    float[] near(int i) {
        float[] centre = centres[Math.floorMod(i, CLUSTERS)];
        float[] noise = gaussian(0.6);
        float[] v = new float[DIMENSION];
        for (int d = 0; d < DIMENSION; d++) {
            v[d] = centre[d] + noise[d];
        }
        return VectorMath.l2Normalize(v);
    }

    private float[] gaussian(double sigma) {
        float[] v = new float[DIMENSION];
        for (int d = 0; d < DIMENSION; d++) {
            v[d] = (float) (sigma * BenchCorpus.gaussian(random));
        }
        return v;
    }
}
