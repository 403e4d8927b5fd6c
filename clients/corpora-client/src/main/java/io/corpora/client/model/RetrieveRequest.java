package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Map;
import java.util.Objects;

/**
 * The body of a retrieve. Only {@code query} is required; null fields take the tenant's defaults. There is no tenant
 * field: the server takes the tenant from the token.
 *
 * @param mode     vector, keyword or hybrid
 * @param filter   a metadata filter ({@code {"lang": "en"}}, {@code {"year": {"$gte": 2020}}}, {@code $and}/{@code $or}/{@code $not})
 * @param minScore score floor (refused in hybrid mode without rerank)
 * @param mmr      MMR λ in [0, 1] for diverse passages
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record RetrieveRequest(String query, String mode, Integer topK, Map<String, Object> filter, Double minScore, Integer maxChars,
                              Boolean rerank, String partition, Integer expandNeighbors, Double mmr) {

    public RetrieveRequest {
        Objects.requireNonNull(query, "query");
    }

    public static RetrieveRequest of(String query) {
        return new RetrieveRequest(query, null, null, null, null, null, null, null, null, null);
    }

    public RetrieveRequest withTopK(int k) {
        return new RetrieveRequest(query, mode, k, filter, minScore, maxChars, rerank, partition, expandNeighbors, mmr);
    }

    public RetrieveRequest withFilter(Map<String, Object> f) {
        return new RetrieveRequest(query, mode, topK, f, minScore, maxChars, rerank, partition, expandNeighbors, mmr);
    }

    public RetrieveRequest withMode(String m) {
        return new RetrieveRequest(query, m, topK, filter, minScore, maxChars, rerank, partition, expandNeighbors, mmr);
    }

    public RetrieveRequest withMinScore(double s) {
        return new RetrieveRequest(query, mode, topK, filter, s, maxChars, rerank, partition, expandNeighbors, mmr);
    }

    public RetrieveRequest withPartition(String p) {
        return new RetrieveRequest(query, mode, topK, filter, minScore, maxChars, rerank, p, expandNeighbors, mmr);
    }
}
