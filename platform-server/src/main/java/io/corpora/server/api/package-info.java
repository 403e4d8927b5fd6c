/**
 * The data-plane REST API: documents, ingest jobs, index verification and repair, retrieval; request bodies and their
 * bounds.
 */
package io.corpora.server.api;
