package io.corpora.spi;

import java.util.Arrays;
import java.util.Objects;

/**
 * A chunk as written to a store: the chunk, the text that was indexed (may carry context such as the
 * heading path, see the contextualizer), and its embedding (null or empty when the store keeps none).
 */
public record EmbeddedChunk(Chunk chunk, String indexText, float[] embedding) {

    public EmbeddedChunk {
        Objects.requireNonNull(chunk, "chunk");
        indexText = indexText == null ? chunk.text() : indexText;
        if (embedding != null) {
            for (float v : embedding) {
                if (!Float.isFinite(v)) {
                    throw new IllegalArgumentException("embedding of chunk '" + chunk.id() + "' has a non-finite value");
                }
            }
            embedding = embedding.clone();
        }
    }

    public EmbeddedChunk(Chunk chunk, float[] embedding) {
        this(chunk, null, embedding);
    }

    public boolean hasEmbedding() {
        return embedding != null && embedding.length > 0;
    }

    @Override
    public float[] embedding() {
        return embedding == null ? null : embedding.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof EmbeddedChunk e && chunk.equals(e.chunk) && indexText.equals(e.indexText) && Arrays.equals(embedding, e.embedding);
    }

    @Override
    public int hashCode() {
        return Objects.hash(chunk, indexText, Arrays.hashCode(embedding));
    }

    @Override
    public String toString() {
        return "EmbeddedChunk[" + chunk.id() + ", dims=" + (embedding == null ? 0 : embedding.length) + "]";
    }
}
