package io.corpora.spi.store;

/** Optional abilities of a {@link VectorStore}. */
public enum StoreCapability {
    /** Serves {@link SearchMode#VECTOR}. */
    VECTOR_SEARCH,
    /** Serves {@link SearchMode#KEYWORD}. */
    KEYWORD_SEARCH,
    /** Honours {@link SearchRequest#minScore()} inside the search rather than after it. */
    MIN_SCORE_PUSHDOWN,
    /** Can return stored embeddings with hits (for MMR). */
    RETURNS_EMBEDDINGS
}
