package io.corpora.client.model;

import java.util.List;

/**
 * A candidate against the same candidate of the previous comparable run (same judged set, recallAt and actor).
 *
 * @param previous   that run's id
 * @param regression nDCG@10 fell by more than {@code maxDrop}
 * @param worse      up to 10 queries whose nDCG@10 fell, largest fall first
 */
public record EvaluationComparison(String previous, double ndcg10Delta, double recallDelta, double mrr10Delta, double maxDrop,
                                   boolean regression, List<EvaluationWorseQuery> worse) {}
