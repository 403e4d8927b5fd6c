package io.corpora.retrieval;

import io.corpora.spi.MetadataFilter;
import java.util.Locale;
import java.util.Objects;

/**
 * One retrieval as a caller asked for it; nulls take the tenant's defaults. What the caller may ask at most (query
 * length and terms, filter size) is {@link RetrieveLimits}'s to check, before this is made.
 *
 * @param mode            vector | keyword | hybrid
 * @param expandNeighbors include ± this many neighbouring chunks of each hit's document (0: none)
 * @param mmrLambda       MMR diversity selection with this λ (relevance weight, 0..1), or null for none
 * @param consistencyToken read-your-writes: a token an ingest answered, which the store searches must have seen; null for none
 */
public record RetrieveCommand(String query, String mode, Integer topK, MetadataFilter filter, Double minScore, Integer maxChars,
                              Boolean rerank, int expandNeighbors, Double mmrLambda, String consistencyToken) {

    public static final int MAX_TOP_K = 100;
    public static final int MAX_NEIGHBORS = 5;

    public RetrieveCommand {
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("query must not be blank");
        }
        if (mode != null) {
            mode = mode.trim().toLowerCase(Locale.ROOT);
            if (!mode.equals("vector") && !mode.equals("keyword") && !mode.equals("hybrid")) {
                throw new IllegalArgumentException("mode must be vector, keyword or hybrid, got '" + mode + "'");
            }
        }
        if (topK != null && (topK < 1 || topK > MAX_TOP_K)) {
            throw new IllegalArgumentException("topK must be between 1 and " + MAX_TOP_K + ", got " + topK);
        }
        filter = Objects.requireNonNullElse(filter, MetadataFilter.all());
        if (expandNeighbors < 0 || expandNeighbors > MAX_NEIGHBORS) {
            throw new IllegalArgumentException("expandNeighbors must be between 0 and " + MAX_NEIGHBORS);
        }
        if (mmrLambda != null && !(mmrLambda >= 0 && mmrLambda <= 1)) {
            throw new IllegalArgumentException("mmr lambda must be between 0 and 1");
        }
    }

    /** Without read-your-writes. */
    public RetrieveCommand(String query, String mode, Integer topK, MetadataFilter filter, Double minScore, Integer maxChars,
                           Boolean rerank, int expandNeighbors, Double mmrLambda) {
        this(query, mode, topK, filter, minScore, maxChars, rerank, expandNeighbors, mmrLambda, null);
    }

    public static RetrieveCommand of(String query) {
        return new RetrieveCommand(query, null, null, null, null, null, null, 0, null);
    }

    public RetrieveCommand withConsistencyToken(String token) {
        return new RetrieveCommand(query, mode, topK, filter, minScore, maxChars, rerank, expandNeighbors, mmrLambda, token);
    }
}
