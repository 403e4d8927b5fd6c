package io.corpora.engine.retriever;

import io.corpora.spi.RetrieveOptions;

/**
 * Finds the passages most relevant to a query. Every retriever honours the score contract (finite scores,
 * sorted descending, ties by id), applies {@link RetrieveOptions#minScore()} before its top-K cut where its
 * scores are similarities, and spends {@link RetrieveOptions#maxChars()} over its passages in rank order.
 * Retrievers are bound to their namespace, store and embedder at construction; they are thread-safe.
 */
@FunctionalInterface
public interface Retriever {

    RetrievalResult retrieve(String query, RetrieveOptions options);

    /**
     * Starts, in the background, the slow part of a coming {@link #retrieve} of {@code query} that needs no store (the
     * query embedding), so a composite can run other legs meanwhile. Returns whether it started anything; by default
     * nothing. A prefetch that is never consumed costs only its own work.
     */
    default boolean prefetch(String query) {
        return false;
    }
}
