package io.corpora.client.model;

/** The judged queries (with at least one judgement) and the graded judgements over them. */
public record EvaluationJudgedSet(int queries, int judgements) {}
