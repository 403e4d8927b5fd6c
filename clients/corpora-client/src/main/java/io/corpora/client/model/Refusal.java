package io.corpora.client.model;

/** A passage the context budget or the score floor left out. */
public record Refusal(String passageId, String reason, double score, int chars, int charsUsed) {}
