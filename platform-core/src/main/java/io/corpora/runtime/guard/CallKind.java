package io.corpora.runtime.guard;

import io.corpora.spi.ClassifiedFailure;
import io.corpora.spi.FailureKind;
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
     * The SPI failure contract's kind of a plugin exception. One that states its kind ({@link ClassifiedFailure}: a
     * {@code PluginException}, an {@link InvalidInputException}, a {@code DocumentLoadException}) is taken at its
     * word. One that does not — every exception of a plugin built before SPI 1.3 — is classified as it always was: for
     * loaders a plain {@link IllegalArgumentException} is a caller error (a loader's input is the caller's document
     * itself, and the SPI's value types refuse what a document holds with one); anything else, a plain
     * {@code IllegalArgumentException} from another kind included (the server validates what it passes on, so it
     * means the plugin rejected input the server held valid), is {@link FailureKind#TRANSIENT}.
     */
    public FailureKind classify(Throwable error) {
        if (error instanceof DocumentLoadException && this != LOADER) {
            return FailureKind.TRANSIENT; // a loader's exception from another kind of plugin is that plugin's defect, as before 1.2
        }
        return ClassifiedFailure.of(error).orElseGet(() ->
                this == LOADER && error instanceof IllegalArgumentException ? FailureKind.CALLER_ERROR : FailureKind.TRANSIENT);
    }

    /** Whether {@link #classify} calls {@code error} the caller's, not the plugin's: it passes through the guard unchanged. */
    public boolean isCallerError(Throwable error) {
        return classify(error) == FailureKind.CALLER_ERROR;
    }
}
