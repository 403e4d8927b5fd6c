package io.corpora.client.model;

import java.util.Map;

/** One retrieved passage with its score, caller-visible metadata and citation. */
public record Passage(String id, String text, double score, String source, Map<String, Object> metadata, Citation citation) {}
