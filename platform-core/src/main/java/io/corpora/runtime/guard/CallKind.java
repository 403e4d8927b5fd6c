package io.corpora.runtime.guard;

import io.corpora.spi.InvalidInputException;
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
    LOADER("loader"),
    GENERATOR("generator");

    private final String label;

    CallKind(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }

    /**
     * Whether a plugin exception is about the caller's input rather than the plugin's health: it passes through
     * unchanged, is not retried and is counted neither for nor against the breaker. For every kind the SPI's
     * {@link InvalidInputException}, the one way a plugin says so (the server validates what it passes on, so any other
     * exception, a plain {@link IllegalArgumentException} included, is the plugin's failure). For loaders also a
     * {@link DocumentLoadException} (an unreadable document) and an {@link IllegalArgumentException}: a loader's input
     * is the caller's document itself, and the SPI's value types refuse what a document holds with one.
     */
    public boolean isCallerError(Throwable error) {
        return error instanceof InvalidInputException
                || (this == LOADER && (error instanceof DocumentLoadException || error instanceof IllegalArgumentException));
    }
}
