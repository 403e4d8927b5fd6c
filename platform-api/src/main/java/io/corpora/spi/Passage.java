package io.corpora.spi;

import java.util.Map;
import java.util.Objects;

/**
 * A retrieved, citable span of text.
 *
 * @param score finite; higher is always more relevant (see {@link VectorSimilarity} for vector scores)
 *
 * <p>No plugin takes or returns it: it is the platform's retrieval result (engine, REST API and the CLI's eval share
 * it). It stays here because SPI 1.x only adds (removing a public type could break a plugin built against it); it is
 * a candidate to move to the core at SPI 2.0.
 */
public record Passage(String id, String text, double score, String source, Map<String, Object> metadata) {

    public Passage {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(text, "text");
        if (!Double.isFinite(score)) {
            throw new IllegalArgumentException("passage '" + id + "' has a non-finite score: " + score);
        }
        source = source == null ? "" : source;
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    public Passage withScore(double newScore) {
        return new Passage(id, text, newScore, source, metadata);
    }

    public Passage withText(String newText) {
        return new Passage(id, newText, score, source, metadata);
    }
}
