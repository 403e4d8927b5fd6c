package io.corpora.client.model;

import java.util.List;

/** The actor an evaluation retrieved as; {@code partition} null for the default partition. */
public record EvaluationActorUsed(String subject, List<String> groups, String partition) {}
