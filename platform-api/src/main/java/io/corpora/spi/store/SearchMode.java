package io.corpora.spi.store;

/** The leg a store search serves. */
public enum SearchMode {
    /** Nearest neighbours of the query vector; scores per {@link io.corpora.spi.VectorSimilarity}. */
    VECTOR,
    /** Lexical relevance of the query text (e.g. BM25); scores are the engine's raw relevance, higher is better. */
    KEYWORD
}
