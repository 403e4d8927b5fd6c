package io.corpora.rerank.onnx;

import java.util.Arrays;
import java.util.Comparator;

/**
 * Reciprocal rank fusion (k = 60) of the order the candidates arrived in with the order of their reranker scores:
 * {@code 1/(k + inputRank) + 1/(k + scoreRank)}. The engine's reranking retriever passes candidates in first-stage
 * order, so this keeps the first stage's evidence (e.g. BM25 in a hybrid) that a bi-encoder score alone lacks.
 */
final class InputOrderFusion {

    static final int K = 60;

    private InputOrderFusion() {}

    static double[] fuse(double[] scores) {
        Integer[] byScore = new Integer[scores.length];
        for (int i = 0; i < byScore.length; i++) {
            byScore[i] = i;
        }
        // Descending score; ties keep the input order.
        Arrays.sort(byScore, Comparator.comparingDouble((Integer i) -> -scores[i]).thenComparingInt(i -> i));
        double[] fused = new double[scores.length];
        for (int rank = 0; rank < byScore.length; rank++) {
            fused[byScore[rank]] += 1.0 / (K + rank + 1);
        }
        for (int i = 0; i < fused.length; i++) {
            fused[i] += 1.0 / (K + i + 1);
        }
        return fused;
    }
}
