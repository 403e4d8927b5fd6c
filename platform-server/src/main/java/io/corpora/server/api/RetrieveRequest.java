package io.corpora.server.api;

import io.corpora.retrieval.RetrieveCommand;
import io.corpora.retrieval.RetrieveLimits;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * The body of {@code POST /api/v1/tenants/{tenant}/retrieve}. There is deliberately no tenant field: the tenant is
 * the token's (an unknown field such as {@code tenant} is ignored, never honoured).
 */
public class RetrieveRequest {
    /** What {@code minScore} means, for the OpenAPI document (the README says the same). */
    static final String MIN_SCORE = "Score floor. In vector and keyword mode it floors the similarity (or BM25) scores, before the "
            + "top-K cut; with rerank it floors the reranker's scores. In hybrid mode without rerank it is refused (400): fused "
            + "RRF scores are rank statistics, not similarities. Absent: the tenant's default retrieval.minScore, which applies "
            + "to vector and keyword mode only, never to hybrid.";

    public String query;
    public String mode;
    public Integer topK;
    public Map<String, Object> filter;
    @Schema(description = MIN_SCORE)
    public Double minScore;
    public Integer maxChars;
    public Boolean rerank;
    public String partition;
    public Integer expandNeighbors;
    /** MMR λ in [0, 1]; absent for no diversity selection. */
    public Double mmr;

    /** What the retrieval service runs, once within the limits; the partition is the scope's, not the command's. */
    RetrieveCommand toCommand(RetrieveLimits limits) {
        return new RetrieveCommand(limits.query(query), mode, topK, limits.filter(filter), minScore, maxChars, rerank,
                expandNeighbors == null ? 0 : expandNeighbors, mmr);
    }
}
