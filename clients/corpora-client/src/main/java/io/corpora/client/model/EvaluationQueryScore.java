package io.corpora.client.model;

/** One judged query's scores; {@code error} says why it failed (then scored 0). */
public record EvaluationQueryScore(String queryId, double ndcg10, double recall, double mrr10, String error) {}
