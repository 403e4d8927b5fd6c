package io.corpora.client.model;

import java.util.List;

/**
 * A retrieval-quality evaluation: its progress, and once SUCCEEDED every candidate's metrics and the recommended one.
 * In {@link EvaluationList} the per-query scores are left out.
 *
 * @param status      QUEUED, RUNNING, SUCCEEDED or FAILED
 * @param createdBy   the tenant-admin who started it
 * @param candidates  per candidate, in request order
 * @param recommended index into candidates of the best nDCG@10 (the earliest on a tie); null until SUCCEEDED
 * @param regression  a candidate's nDCG@10 fell by more than maxDrop against the previous comparable run
 * @param error       why it FAILED
 * @param appliedAt   when {@code :apply} applied the recommendation; null: the tenant's configuration is unchanged
 */
public record Evaluation(String id, String status, String created, String finished, String createdBy, EvaluationActorUsed actor,
                         EvaluationJudgedSet judgedSet, int recallAt, EvaluationProgress progress, List<EvaluationCandidateResult> candidates,
                         Integer recommended, String recommendation, boolean regression, String error, String appliedAt, String appliedBy) {

    /** Whether it left QUEUED and RUNNING. */
    public boolean ended() {
        return !"QUEUED".equals(status) && !"RUNNING".equals(status);
    }
}
