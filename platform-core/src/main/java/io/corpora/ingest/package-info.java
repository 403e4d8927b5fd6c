/**
 * Ingestion: one document through loader, chunker and embedder into a new version in the store and registry, with its
 * limits, URL fetching, recovery after a crash, index verification and re-embed migrations.
 */
package io.corpora.ingest;
