package io.corpora.client.model;

/** One retrieval leg (e.g. dense, lexical): candidates found and time taken. */
public record RetrievalLeg(String name, int candidates, double millis) {}
