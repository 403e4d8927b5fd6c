package io.corpora.client.model;

/**
 * index:verify: whether the namespace's store holds exactly the chunks its registry expects (what the caller may see).
 *
 * @param namespace  the namespace verified (the tenant's, or its partition's)
 * @param missing    documents whose chunks the store lacks
 * @param orphaned   chunks of no registered document version
 * @param stale      chunks of a version that is no longer active
 * @param unstamped  chunks without the embedder fingerprint they were made with
 */
public record IndexReport(String namespace, boolean consistent, int documents, long chunks, IndexMissing missing, IndexChunkIds orphaned,
                          IndexChunkIds stale, IndexChunkIds unstamped) {}
