package io.corpora.spi;

import java.util.Objects;

/**
 * Options of one retrieval.
 *
 * @param topK     how many passages at most, 1..{@value #MAX_TOP_K}
 * @param filter   metadata filter; {@link MetadataFilter#all()} for none
 * @param minScore a floor applied before the top-K cut (null: none); may leave zero passages
 * @param maxChars a character budget spent over passages in rank order (null: none)
 * @param consistencyToken read-your-writes: the store searches must see every write this token (from
 *                 {@link io.corpora.spi.store.VectorStore#consistencyToken}) names; null for none. Since SPI 1.4.
 *
 * <p>No plugin takes it: it is the request half of {@link Passage}, and stays in the SPI for the same reason (1.x only
 * adds); a candidate to move to the core with it at SPI 2.0.
 */
public record RetrieveOptions(int topK, MetadataFilter filter, Double minScore, Integer maxChars, String consistencyToken) {

    public static final int DEFAULT_TOP_K = 5;
    public static final int MAX_TOP_K = 1000;

    public RetrieveOptions {
        if (topK < 1 || topK > MAX_TOP_K) {
            throw new IllegalArgumentException("topK must be between 1 and " + MAX_TOP_K + ", got " + topK);
        }
        filter = Objects.requireNonNullElse(filter, MetadataFilter.all());
        if (minScore != null && !Double.isFinite(minScore)) {
            throw new IllegalArgumentException("minScore must be a finite number, got " + minScore);
        }
        if (maxChars != null && maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive, got " + maxChars);
        }
        if (consistencyToken != null && consistencyToken.isBlank()) {
            consistencyToken = null;
        }
    }

    /** The SPI 1.0 shape: no consistency token. */
    public RetrieveOptions(int topK, MetadataFilter filter, Double minScore, Integer maxChars) {
        this(topK, filter, minScore, maxChars, null);
    }

    public static RetrieveOptions topK(int topK) {
        return new RetrieveOptions(topK, MetadataFilter.all(), null, null);
    }

    public RetrieveOptions withTopK(int newTopK) {
        return new RetrieveOptions(newTopK, filter, minScore, maxChars, consistencyToken);
    }

    public RetrieveOptions withFilter(MetadataFilter newFilter) {
        return new RetrieveOptions(topK, newFilter, minScore, maxChars, consistencyToken);
    }

    public RetrieveOptions withMinScore(Double newMinScore) {
        return new RetrieveOptions(topK, filter, newMinScore, maxChars, consistencyToken);
    }

    public RetrieveOptions withMaxChars(Integer newMaxChars) {
        return new RetrieveOptions(topK, filter, minScore, newMaxChars, consistencyToken);
    }

    /** Since SPI 1.4. */
    public RetrieveOptions withConsistencyToken(String token) {
        return new RetrieveOptions(topK, filter, minScore, maxChars, token);
    }
}
