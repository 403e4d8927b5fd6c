package {{package}};

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Locale;

/**
 * A starting point: hashes each lower-cased word into one of {@code dimension} buckets and L2-normalises the counts
 * (a deterministic "hashing trick" embedder, no model). Replace {@link #embed} with calls to your model.
 */
final class {{Class}}Embedder implements Embedder {

    private final EmbedderFingerprint fingerprint;

    {{Class}}Embedder(int dimension) {
        // Change the revision whenever the vectors for the same text change: Corpora never mixes two fingerprints.
        this.fingerprint = new EmbedderFingerprint("{{name}}", "hashed-words", dimension, true, "1");
    }

    @Override
    public EmbedderFingerprint fingerprint() {
        return fingerprint;
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return texts.stream().map(this::embed).toList();
    }

    @Override
    public float[] embedQuery(String query) {
        return embed(query);
    }

    private float[] embed(String text) {
        float[] vector = new float[fingerprint.dimension()];
        for (String word : text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+")) {
            if (!word.isEmpty()) {
                vector[Math.floorMod(fnv1a(word), vector.length)] += 1f;
            }
        }
        // A text without words (empty, punctuation) still gets a direction: one bucket of its own.
        if (allZero(vector)) {
            vector[Math.floorMod(fnv1a(text), vector.length)] = 1f;
        }
        double norm = 0;
        for (float v : vector) {
            norm += v * v;
        }
        if (norm > 0) {
            float inverse = (float) (1 / Math.sqrt(norm));
            for (int i = 0; i < vector.length; i++) {
                vector[i] *= inverse;
            }
        }
        return vector;
    }

    private static boolean allZero(float[] vector) {
        for (float v : vector) {
            if (v != 0) {
                return false;
            }
        }
        return true;
    }

    /** FNV-1a over UTF-8: stable across JVMs, unlike String.hashCode's contract. */
    private static int fnv1a(String word) {
        int hash = 0x811c9dc5;
        for (byte b : word.getBytes(StandardCharsets.UTF_8)) {
            hash = (hash ^ (b & 0xff)) * 0x01000193;
        }
        return hash;
    }
}
