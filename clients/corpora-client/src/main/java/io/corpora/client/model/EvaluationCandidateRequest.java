package io.corpora.client.model;

import com.fasterxml.jackson.annotation.JsonInclude;
import java.util.Objects;

/**
 * One configuration an evaluation compares.
 *
 * @param mode   vector, keyword or hybrid
 * @param fusion hybrid only; null: RRF with k = 60 and equal weights
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record EvaluationCandidateRequest(String mode, EvaluationFusion fusion) {

    public EvaluationCandidateRequest {
        Objects.requireNonNull(mode, "mode");
    }

    public static EvaluationCandidateRequest of(String mode) {
        return new EvaluationCandidateRequest(mode, null);
    }

    public static EvaluationCandidateRequest hybrid(EvaluationFusion fusion) {
        return new EvaluationCandidateRequest("hybrid", fusion);
    }
}
