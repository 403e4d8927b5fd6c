package io.corpora.control;

/**
 * A tenant's retrieval defaults, used when a request leaves them out.
 *
 * @param mode     vector | keyword | hybrid
 * @param topK     1..100
 * @param minScore floor for single-leg modes, or null
 * @param maxChars context budget, or null
 * @param rerank   whether the tenant's reranker runs by default
 */
public record RetrievalDefaults(String mode, int topK, Double minScore, Integer maxChars, boolean rerank) {
    public static final RetrievalDefaults STANDARD = new RetrievalDefaults("hybrid", 5, null, 6000, false);
}
