package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * A hybrid candidate's fusion; null fields take the standard's values (RRF, k = 60, weights 1, alpha 0.5, minmax).
 *
 * @param method        rrf or convex
 * @param alpha         convex weight of the vector leg, 0..1
 * @param normalization convex score normalisation: minmax or zscore
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EvaluationFusion(String method, Double k, Double vectorWeight, Double keywordWeight, Double alpha, String normalization) {

    public static EvaluationFusion rrf(double k) {
        return new EvaluationFusion("rrf", k, null, null, null, null);
    }

    public static EvaluationFusion convex(double alpha) {
        return new EvaluationFusion("convex", null, null, null, alpha, null);
    }
}
