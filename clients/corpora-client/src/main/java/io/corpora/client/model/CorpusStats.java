package io.corpora.client.model;

import java.util.Map;

/** Documents, chunks and bytes of the tenant's active versions (what the caller may see), by partition and status. */
public record CorpusStats(String tenant, long documents, long chunks, long bytes, Map<String, Long> documentsByPartition,
                          Map<String, Long> documentsByStatus) {}
