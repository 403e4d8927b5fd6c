package io.corpora.spi.store;

import io.corpora.spi.MetadataFilter;
import java.util.Objects;

/**
 * One store search.
 *
 * @param mode              vector or keyword leg
 * @param vector            the query vector (VECTOR mode)
 * @param text              the query text (KEYWORD mode)
 * @param topK              maximum hits, &gt;= 1
 * @param filter            metadata filter; never null
 * @param minScore          hits scoring below are excluded <b>before</b> the top-K cut; null for none
 * @param embedderId        only chunks stamped with this {@link io.corpora.spi.EmbedderFingerprint#id()}; null for no
 *                          fingerprint constraint (keyword-only corpora)
 * @param includeEmbeddings return each hit's stored vector (for MMR); stores without the capability return none
 * @param consistencyToken  a token an earlier {@link VectorStore#consistencyToken} returned: the search must see every
 *                          write made before it (read-your-writes); null for the store's usual staleness. Stores whose
 *                          reads are always consistent ignore it. Since SPI 1.4.
 */
public record SearchRequest(SearchMode mode, float[] vector, String text, int topK, MetadataFilter filter, Double minScore,
                            String embedderId, boolean includeEmbeddings, String consistencyToken) {

    public SearchRequest {
        Objects.requireNonNull(mode, "mode");
        if (mode == SearchMode.VECTOR && (vector == null || vector.length == 0)) {
            throw new IllegalArgumentException("a vector search needs a query vector");
        }
        if (mode == SearchMode.KEYWORD && (text == null || text.isBlank())) {
            throw new IllegalArgumentException("a keyword search needs query text");
        }
        if (topK < 1) {
            throw new IllegalArgumentException("topK must be >= 1, got " + topK);
        }
        filter = Objects.requireNonNullElse(filter, MetadataFilter.all());
        if (minScore != null && !Double.isFinite(minScore)) {
            throw new IllegalArgumentException("minScore must be finite");
        }
        vector = vector == null ? null : vector.clone();
        if (consistencyToken != null && consistencyToken.isBlank()) {
            consistencyToken = null;
        }
    }

    /** The SPI 1.0 shape: no consistency token. */
    public SearchRequest(SearchMode mode, float[] vector, String text, int topK, MetadataFilter filter, Double minScore,
                         String embedderId, boolean includeEmbeddings) {
        this(mode, vector, text, topK, filter, minScore, embedderId, includeEmbeddings, null);
    }

    public static SearchRequest vector(float[] vector, int topK, MetadataFilter filter, Double minScore, String embedderId) {
        return new SearchRequest(SearchMode.VECTOR, vector, null, topK, filter, minScore, embedderId, false);
    }

    public static SearchRequest keyword(String text, int topK, MetadataFilter filter, Double minScore, String embedderId) {
        return new SearchRequest(SearchMode.KEYWORD, null, text, topK, filter, minScore, embedderId, false);
    }

    public SearchRequest withEmbeddings() {
        return new SearchRequest(mode, vector, text, topK, filter, minScore, embedderId, true, consistencyToken);
    }

    public SearchRequest withTopK(int newTopK) {
        return new SearchRequest(mode, vector, text, newTopK, filter, minScore, embedderId, includeEmbeddings, consistencyToken);
    }

    /** The same search, required to see every write before {@code token} (null: the store's usual staleness). Since SPI 1.4. */
    public SearchRequest withConsistencyToken(String token) {
        return new SearchRequest(mode, vector, text, topK, filter, minScore, embedderId, includeEmbeddings, token);
    }

    @Override
    public float[] vector() {
        return vector == null ? null : vector.clone();
    }
}
