package io.corpora.client.model;

/** A document version whose store holds {@code found} of its {@code expected} chunks. */
public record IndexMissingDocument(String documentId, int version, int expected, int found) {}
