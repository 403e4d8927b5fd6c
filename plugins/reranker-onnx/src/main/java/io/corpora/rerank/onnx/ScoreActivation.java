package io.corpora.rerank.onnx;

import java.util.Locale;

/** How a cross-encoder's raw logit becomes the reranker score; both are monotonic, so the order is the same. */
enum ScoreActivation {
    /** {@code 1 / (1 + e^-logit)}: a relevance probability in (0, 1), comparable across queries. */
    SIGMOID,
    /** The raw logit, for models trained with a margin loss or when the caller calibrates scores itself. */
    LOGIT;

    double apply(double logit) {
        return this == SIGMOID ? 1.0 / (1.0 + Math.exp(-logit)) : logit;
    }

    static ScoreActivation parse(String value) {
        return valueOf(value.trim().toUpperCase(Locale.ROOT));
    }
}
