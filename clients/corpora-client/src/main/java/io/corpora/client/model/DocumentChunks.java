package io.corpora.client.model;

import java.util.List;

/** The chunks of one document's active version, in order. */
public record DocumentChunks(String documentId, List<Chunk> chunks) {}
