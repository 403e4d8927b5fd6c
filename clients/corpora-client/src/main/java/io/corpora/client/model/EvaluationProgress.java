package io.corpora.client.model;

/** Query retrievals done over all candidates, of {@code total}. */
public record EvaluationProgress(int done, int total, int percent) {}
