package io.corpora.cli.eval;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;

/** A test input: hashed bag-of-words vectors, so texts sharing words are near; counts how often it is called. */
class BagOfWordsEmbedder implements Embedder {

    static final int DIMENSION = 64;
    final AtomicInteger documentCalls = new AtomicInteger();
    final AtomicInteger queryCalls = new AtomicInteger();

    @Override
    public EmbedderFingerprint fingerprint() {
        return new EmbedderFingerprint("test", "bag-of-words", DIMENSION, true, "1");
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        documentCalls.addAndGet(texts.size());
        return texts.stream().map(BagOfWordsEmbedder::vector).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        queryCalls.incrementAndGet();
        return vector(query);
    }

    static float[] vector(String text) {
        float[] v = new float[DIMENSION];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!word.isEmpty()) {
                v[Math.floorMod(word.hashCode(), DIMENSION)] += 1;
            }
        }
        v[0] += 0.01f; // never all zeros
        return io.corpora.spi.VectorMath.l2Normalize(v);
    }
}
