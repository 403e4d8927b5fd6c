package io.corpora.server.api;

import io.corpora.retrieval.RetrieveCommand;
import io.corpora.retrieval.RetrieveLimits;
import java.util.Map;

/**
 * The body of {@code POST /api/v1/tenants/{tenant}/retrieve}. There is deliberately no tenant field: the tenant is
 * the token's (an unknown field such as {@code tenant} is ignored, never honoured).
 */
public class RetrieveRequest {
    public String query;
    public String mode;
    public Integer topK;
    public Map<String, Object> filter;
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
