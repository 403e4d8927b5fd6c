package io.corpora.store.lucene;

import java.io.IOException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.lucene.index.IndexReader;
import org.apache.lucene.search.IndexSearcher;
import org.apache.lucene.search.Query;

/**
 * How many documents of a point-in-time reader match a filter, remembered for as long as that reader is open. A reader
 * never changes, so a remembered count is exact; both legs count the same filter (the embedder fingerprint,
 * usually) on every query, to run without it when every chunk passes, and on a namespace of 100,000 chunks that count
 * walks 100,000 postings — about as long as the HNSW search itself. One instance serves both legs of a store. A
 * reader's counts are dropped when it closes; at most {@link #PER_READER} filters are kept
 * per reader, so callers' varied metadata filters cannot grow it without bound (past that they are counted each time).
 */
final class ReaderCounts {

    static final int PER_READER = 64;

    private final Map<IndexReader.CacheKey, Map<Query, Integer>> counts = new ConcurrentHashMap<>();

    int count(IndexSearcher searcher, Query query) throws IOException {
        IndexReader.CacheHelper helper = searcher.getIndexReader().getReaderCacheHelper();
        if (helper == null) { // a reader that cannot say when it closes is never remembered
            return searcher.count(query);
        }
        Map<Query, Integer> ofReader = counts.computeIfAbsent(helper.getKey(), key -> {
            helper.addClosedListener(counts::remove);
            return new ConcurrentHashMap<>();
        });
        Integer known = ofReader.get(query);
        if (known != null) {
            return known;
        }
        int counted = searcher.count(query);
        if (ofReader.size() < PER_READER) {
            ofReader.put(query, counted);
        }
        return counted;
    }

    /** Readers with remembered counts; for tests. */
    int readers() {
        return counts.size();
    }
}
