package io.corpora.client.model;

/** Token counts of an answer's model call, as the generator reported them (each null when it did not). */
public record AskUsage(Integer promptTokens, Integer completionTokens, Integer totalTokens) {}
