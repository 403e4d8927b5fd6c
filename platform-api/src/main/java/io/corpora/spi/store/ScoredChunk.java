package io.corpora.spi.store;

import io.corpora.spi.Chunk;
import java.util.Objects;

/** A store hit: the chunk, its contract score (finite, higher is better), and its vector if requested. */
public record ScoredChunk(Chunk chunk, double score, float[] embedding) {

    public ScoredChunk {
        Objects.requireNonNull(chunk, "chunk");
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("non-finite score for chunk '" + chunk.id() + "'");
        }
    }

    public ScoredChunk(Chunk chunk, double score) {
        this(chunk, score, null);
    }
}
