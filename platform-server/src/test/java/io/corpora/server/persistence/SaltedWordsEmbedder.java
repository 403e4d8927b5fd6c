package io.corpora.server.persistence;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.VectorMath;
import io.corpora.spi.embed.Embedder;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * A test input: hashed bag-of-words vectors whose hashing is salted, so two salts are two incomparable embedders (two
 * fingerprints) of one width. Counts the texts it embeds, and runs a hook before each document batch.
 */
final class SaltedWordsEmbedder implements Embedder {

    static final int DIMENSION = 32;

    private final String salt;
    final AtomicInteger documentsEmbedded = new AtomicInteger();
    volatile Consumer<List<String>> beforeBatch = texts -> {};

    SaltedWordsEmbedder(String salt) {
        this.salt = salt;
    }

    @Override
    public EmbedderFingerprint fingerprint() {
        return new EmbedderFingerprint("test", "salted-words-" + salt, DIMENSION, true, "1");
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        beforeBatch.accept(texts);
        documentsEmbedded.addAndGet(texts.size());
        return texts.stream().map(this::vector).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return vector(query);
    }

    private float[] vector(String text) {
        float[] v = new float[DIMENSION];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^a-z0-9]+")) {
            if (!word.isEmpty()) {
                v[Math.floorMod((salt + word).hashCode(), DIMENSION)] += 1;
            }
        }
        v[0] += 0.01f; // never all zeros
        return VectorMath.l2Normalize(v);
    }
}
