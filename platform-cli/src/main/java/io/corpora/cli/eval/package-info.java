/**
 * {@code corpora eval}: retrieval quality (nDCG, recall, MRR) on a BEIR dataset through the real chunker, plugins and
 * retrievers, with an embedding cache.
 */
package io.corpora.cli.eval;
