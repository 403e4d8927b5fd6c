package io.corpora.client.model;

/** A query whose nDCG@10 fell from {@code before} (the previous run) to {@code after}. */
public record EvaluationWorseQuery(String queryId, double before, double after) {}
