package io.corpora.client.model;

/** The fusion a hybrid candidate ran with, every value filled in. */
public record EvaluationFusionUsed(String method, double k, double vectorWeight, double keywordWeight, double alpha, String normalization) {}
