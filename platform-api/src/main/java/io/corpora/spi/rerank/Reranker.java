package io.corpora.spi.rerank;

import java.util.List;

/**
 * Scores candidate passages against a query, usually more precisely (and slowly) than first-stage retrieval.
 * Implementations are thread-safe; a failure is an exception, which the engine turns into a degraded
 * (base-order) result, never a lost answer.
 *
 * <p><b>Failures</b> ({@link io.corpora.spi.PluginException}): a query or text the model cannot take is an
 * {@link io.corpora.spi.InvalidInputException} (caller error); an unreachable backend a {@code PluginException} of kind
 * {@link io.corpora.spi.FailureKind#TRANSIENT}; a misconfigured one of kind {@link io.corpora.spi.FailureKind#PERMANENT}.
 * Any other exception is treated as transient. Scoring an empty list gives an empty array, never a failure; equal
 * texts get equal scores.
 */
public interface Reranker extends AutoCloseable {

    /** One finite relevance score per text, aligned with {@code texts}; higher is more relevant. */
    double[] score(String query, List<String> texts);

    @Override
    default void close() {}
}
