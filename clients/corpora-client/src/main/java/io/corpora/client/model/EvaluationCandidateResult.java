package io.corpora.client.model;

import java.util.List;

/**
 * A candidate and, once its evaluation SUCCEEDED, its mean scores.
 *
 * @param recall     mean Recall@recallAt
 * @param comparison against the previous comparable run; null when there is none
 * @param queries    per judged query; null in lists
 */
public record EvaluationCandidateResult(String mode, EvaluationFusionUsed fusion, String label, double ndcg10, double recall, double mrr10,
                                        int failedQueries, EvaluationFingerprint fingerprint, EvaluationComparison comparison,
                                        List<EvaluationQueryScore> queries) {}
