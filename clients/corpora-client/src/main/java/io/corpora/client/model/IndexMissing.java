package io.corpora.client.model;

import java.util.List;

/** Documents whose chunks the store lacks: {@code count} is exact, {@code documents} lists up to the server's bound. */
public record IndexMissing(long count, List<IndexMissingDocument> documents) {}
