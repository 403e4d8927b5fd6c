package io.corpora.benchmarks;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import java.util.List;

/** An embedder that costs almost nothing (one prepared unit vector), so what a benchmark measures is around it. */
final class ConstantEmbedder implements Embedder {

    static final EmbedderFingerprint FINGERPRINT = new EmbedderFingerprint("bench", "constant", 384, true, "1");
    private final float[] vector = new float[384];

    ConstantEmbedder() {
        vector[0] = 1;
    }

    @Override
    public EmbedderFingerprint fingerprint() {
        return FINGERPRINT;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return texts.stream().map(t -> vector).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return vector;
    }
}
