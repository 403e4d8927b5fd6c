package io.corpora.client.model;

import java.util.List;

/** A page of evaluations, newest first; {@code next} is the next page's offset, null on the last. */
public record EvaluationList(List<Evaluation> evaluations, Integer next) {}
