package io.corpora.controlplane;

import io.corpora.engine.retriever.FusionSpec;

/**
 * A tenant's retrieval defaults, used when a request leaves them out.
 *
 * @param mode     vector | keyword | hybrid
 * @param topK     1..100
 * @param minScore floor for single-leg modes (vector, keyword), or null; a hybrid retrieval never inherits it
 * @param maxChars context budget, or null
 * @param rerank   whether the tenant's reranker runs by default
 * @param fusion   how hybrid mode fuses its legs (null: {@link FusionSpec#STANDARD})
 */
public record RetrievalDefaults(String mode, int topK, Double minScore, Integer maxChars, boolean rerank, FusionSpec fusion) {
    public static final RetrievalDefaults STANDARD = new RetrievalDefaults("hybrid", 5, null, 6000, false, FusionSpec.STANDARD);

    public RetrievalDefaults {
        fusion = fusion == null ? FusionSpec.STANDARD : fusion;
    }

    /** Defaults with the standard fusion (the constructor before fusion was configurable). */
    public RetrievalDefaults(String mode, int topK, Double minScore, Integer maxChars, boolean rerank) {
        this(mode, topK, minScore, maxChars, rerank, FusionSpec.STANDARD);
    }

    public RetrievalDefaults withFusion(FusionSpec newFusion) {
        return new RetrievalDefaults(mode, topK, minScore, maxChars, rerank, newFusion);
    }

    /**
     * The score floor of one retrieval in {@code mode}: the request's own when it gives one, else this default in the
     * single-leg modes only. A hybrid's fused scores are rank statistics, not similarities, so a similarity floor from
     * the tenant's defaults would drop every fused passage; an explicit floor in hybrid mode is the caller's (it floors
     * reranker scores, and is refused without a reranker).
     */
    public Double minScoreFor(String mode, Double requested) {
        if (requested != null) {
            return requested;
        }
        return "hybrid".equals(mode) ? null : minScore;
    }
}
