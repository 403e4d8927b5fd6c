package io.corpora.client.model;

import java.util.List;

/** Chunk ids of one kind of inconsistency: {@code count} is exact, {@code chunkIds} lists up to the server's bound. */
public record IndexChunkIds(long count, List<String> chunkIds) {}
