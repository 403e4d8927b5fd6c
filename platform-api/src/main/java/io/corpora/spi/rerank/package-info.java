/** Rerankers: reorder retrieved passages for a query, and their providers. */
package io.corpora.spi.rerank;
