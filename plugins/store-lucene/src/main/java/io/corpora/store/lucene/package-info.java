/**
 * The embedded default vector store: a Lucene index on local disk per namespace, serving vector (HNSW) and BM25
 * search.
 */
package io.corpora.store.lucene;
