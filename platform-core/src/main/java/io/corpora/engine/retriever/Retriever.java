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
     * Begins this retrieval so a composite can run other legs meanwhile: a retriever with slow parts that need no
     * caller context (a query embedding, a store call) may start them in the background; whatever needs the caller's
     * thread runs in {@link PendingRetrieval#join}. By default nothing starts until joined. A retrieval that is never
     * joined costs only its own work.
     */
    default PendingRetrieval start(String query, RetrieveOptions options) {
        return PendingRetrieval.onJoin(() -> retrieve(query, options));
    }
}
