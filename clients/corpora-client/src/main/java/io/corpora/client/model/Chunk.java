package io.corpora.client.model;

import java.util.List;
import java.util.Map;

/** One chunk of a document's active version with its caller-visible metadata. */
public record Chunk(String id, int index, String text, List<String> headingPath, Map<String, Object> metadata) {}
