package io.corpora.cli.bench;

import io.corpora.spi.VectorMath;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/** A bench corpus for tests: texts "passage i", random unit vectors, every query's vector the first passage's. */
final class SyntheticCorpus {

    private SyntheticCorpus() {}

    static BenchCorpus of(int passages, int dimension, long seed, List<String> queries) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> texts = new ArrayList<>();
        List<float[]> vectors = new ArrayList<>();
        for (int i = 0; i < passages; i++) {
            float[] v = new float[dimension];
            for (int d = 0; d < dimension; d++) {
                v[d] = (float) BenchCorpus.gaussian(random);
            }
            texts.add("passage " + i);
            vectors.add(VectorMath.l2Normalize(v));
        }
        return new BenchCorpus(texts, vectors, queries, queries.stream().map(q -> vectors.get(0)).toList());
    }
}
