/**
 * A tenant's retrieval service: one retrieve request (query, filter, options, limits) through the access decision and
 * the tenant's composed retriever to verified passages.
 */
package io.corpora.retrieval;
