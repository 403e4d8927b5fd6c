package io.corpora.rerank.onnx;

import io.corpora.spi.rerank.Reranker;
import java.util.List;
import java.util.Objects;

/**
 * The part of the {@link Reranker} contract every reranker here keeps the same way: a null query or text is refused and
 * an empty list scores as an empty array without touching the model; the subclass scores a non-empty list.
 */
abstract class CheckedReranker implements Reranker {

    @Override
    public final double[] score(String query, List<String> texts) {
        Objects.requireNonNull(query, "query");
        texts.forEach(t -> Objects.requireNonNull(t, "texts must not contain null"));
        if (texts.isEmpty()) {
            return new double[0];
        }
        return scoreNonEmpty(query, texts);
    }

    /** One finite score per text of a non-empty list without nulls, aligned with {@code texts}. */
    abstract double[] scoreNonEmpty(String query, List<String> texts);
}
