package io.corpora.client.model;

import java.util.Map;

/**
 * The settings a framework retriever (LangChain4j, Spring AI) applies to every query it retrieves: null fields take
 * the tenant's defaults. {@link #request(String)} makes the request for one query.
 */
public record RetrieveOptions(String mode, Integer topK, Map<String, Object> filter, Double minScore, String partition) {

    public static final RetrieveOptions DEFAULTS = new RetrieveOptions(null, null, null, null, null);

    public RetrieveRequest request(String query) {
        return new RetrieveRequest(query, mode, topK, filter, minScore, null, null, partition, null, null);
    }

    public RetrieveOptions withTopK(int k) {
        return new RetrieveOptions(mode, k, filter, minScore, partition);
    }

    /** A metadata filter in Corpora's filter language, e.g. {@code Map.of("lang", "en")}. */
    public RetrieveOptions withFilter(Map<String, Object> f) {
        return new RetrieveOptions(mode, topK, f, minScore, partition);
    }

    public RetrieveOptions withMode(String m) {
        return new RetrieveOptions(m, topK, filter, minScore, partition);
    }

    public RetrieveOptions withMinScore(double s) {
        return new RetrieveOptions(mode, topK, filter, s, partition);
    }

    public RetrieveOptions withPartition(String p) {
        return new RetrieveOptions(mode, topK, filter, minScore, p);
    }
}
