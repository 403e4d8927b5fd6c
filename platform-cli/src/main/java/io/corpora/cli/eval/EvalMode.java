package io.corpora.cli.eval;

import java.util.Arrays;
import java.util.List;

/** Which retriever the evaluation measures. */
public enum EvalMode {
    BM25("bm25", false, false),
    VECTOR("vector", true, false),
    HYBRID("hybrid", true, false),
    HYBRID_RERANK("hybrid+rerank", true, true);

    private final String label;
    private final boolean needsEmbedder;
    private final boolean needsReranker;

    EvalMode(String label, boolean needsEmbedder, boolean needsReranker) {
        this.label = label;
        this.needsEmbedder = needsEmbedder;
        this.needsReranker = needsReranker;
    }

    public String label() {
        return label;
    }

    public boolean needsEmbedder() {
        return needsEmbedder;
    }

    public boolean needsReranker() {
        return needsReranker;
    }

    public static List<String> labels() {
        return Arrays.stream(values()).map(EvalMode::label).toList();
    }

    public static EvalMode parse(String label) {
        return Arrays.stream(values()).filter(m -> m.label.equals(label)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown mode '" + label + "'; expected one of " + labels()));
    }
}
