/** The {@code pgvector} store: chunks in a PostgreSQL table searched with pgvector's HNSW index and full text. */
package io.corpora.store.pgvector;
