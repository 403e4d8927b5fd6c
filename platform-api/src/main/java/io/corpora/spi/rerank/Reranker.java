package io.corpora.spi.rerank;

import java.util.List;

/**
 * Scores candidate passages against a query, usually more precisely (and slowly) than first-stage retrieval.
 * Implementations are thread-safe; a failure is an exception, which the engine turns into a degraded
 * (base-order) result, never a lost answer.
 */
public interface Reranker extends AutoCloseable {

    /** One finite relevance score per text, aligned with {@code texts}; higher is more relevant. */
    double[] score(String query, List<String> texts);

    @Override
    default void close() {}
}
