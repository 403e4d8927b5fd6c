package io.corpora.rerank.onnx;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * A bounded least-recently-used map from text to its vector: reranking sees the same passages again and again
 * (popular chunks, repeated queries), and a sentence's vector never changes for a given model.
 */
final class EmbeddingCache {

    private final int maxEntries;
    private final LinkedHashMap<String, float[]> entries;

    EmbeddingCache(int maxEntries) {
        this.maxEntries = maxEntries;
        this.entries = new LinkedHashMap<>(16, 0.75f, true) {
            private static final long serialVersionUID = 1L;

            @Override
            protected boolean removeEldestEntry(Map.Entry<String, float[]> eldest) {
                return size() > EmbeddingCache.this.maxEntries;
            }
        };
    }

    synchronized Optional<float[]> get(String text) {
        return Optional.ofNullable(entries.get(text));
    }

    synchronized void put(String text, float[] vector) {
        if (maxEntries > 0) {
            entries.put(text, vector);
        }
    }

    synchronized int size() {
        return entries.size();
    }
}
