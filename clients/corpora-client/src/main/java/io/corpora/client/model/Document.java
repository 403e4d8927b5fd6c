package io.corpora.client.model;

import java.util.Map;

/** A registered document: active version, chunk count, size, metadata, status (and {@code error} when it failed). */
public record Document(String id, String partition, String source, String mediaType, String status, int version, int chunks,
                       long bytes, Map<String, Object> metadata, String error, String updated) {}
