package io.corpora.store.lucene;

/**
 * How the keyword leg scores beyond BM25's k1 and b; both levers are off by default, and off leaves the index and
 * every score as they were without them.
 *
 * @param titleBoost          weight of a separate title field (the chunk's title and heading path) whose BM25 score is
 *                            added to the body's; 0: no title field is written and none is searched
 * @param feedbackChunks      pseudo-relevance feedback: the first pass's top N hits the query is expanded from; 0: off
 * @param feedbackTerms       expansion terms kept (and terms kept per feedback chunk)
 * @param feedbackQueryWeight the original query's share of the expanded query (RM3's interpolation weight)
 */
record KeywordOptions(float titleBoost, int feedbackChunks, int feedbackTerms, float feedbackQueryWeight) {

    boolean titleField() {
        return titleBoost > 0;
    }

    boolean feedback() {
        return feedbackChunks > 0;
    }
}
