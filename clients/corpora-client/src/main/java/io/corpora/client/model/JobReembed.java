package io.corpora.client.model;

/** What a re-embed migration moves from and to (embedder fingerprints) and the target provider. */
public record JobReembed(String from, String to, String provider) {}
