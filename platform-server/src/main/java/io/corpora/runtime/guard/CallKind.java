package io.corpora.runtime.guard;

import io.corpora.spi.loader.DocumentLoadException;

/**
 * The kinds of plugin call the server guards; each has its own policy ({@code corpora.ft.<label>.<param>}) and its own
 * breaker and bulkhead per tenant.
 */
public enum CallKind {
    EMBEDDER("embedder"),
    STORE("store"),
    RERANKER("reranker"),
    FILTER_HOOK("filter-hook"),
    LOADER("loader");

    private final String label;

    CallKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * Whether a plugin exception is about the caller's input rather than the plugin's health (MP FT's {@code skipOn}): it
     * passes through unchanged, is not retried and counts as a success for the breaker. For every kind an
     * {@link IllegalArgumentException}; for loaders also a {@link DocumentLoadException} (an unreadable document).
     */
    public boolean isCallerError(Throwable error) {
        return error instanceof IllegalArgumentException || (this == LOADER && error instanceof DocumentLoadException);
    }
}
