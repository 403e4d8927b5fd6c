package io.corpora.runtime.guard;

/**
 * The kinds of plugin call the server guards; each has its own policy ({@code corpora.ft.<label>.<param>}) and its own
 * breaker and bulkhead per tenant.
 */
public enum CallKind {
    EMBEDDER("embedder"),
    STORE("store"),
    RERANKER("reranker"),
    FILTER_HOOK("filter-hook");

    private final String label;

    CallKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
