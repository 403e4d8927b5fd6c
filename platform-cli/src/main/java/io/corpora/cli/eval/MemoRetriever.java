package io.corpora.cli.eval;

import io.corpora.engine.retriever.RetrievalResult;
import io.corpora.engine.retriever.Retriever;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.RetrieveOptions;
import java.util.Objects;

/**
 * Remembers a leg's last result (query and depth), so an evaluation measuring several fusions of the same legs,
 * query by query, runs each leg once per query. Only the last is kept: thousands of queries × hundreds of passages
 * would not fit in memory. A failure is not remembered. Evaluation only: a live corpus changes between calls.
 */
final class MemoRetriever implements Retriever {

    private final Retriever delegate;
    private String lastKey;
    private RetrievalResult last;

    MemoRetriever(Retriever delegate) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public RetrievalResult retrieve(String query, RetrieveOptions options) {
        // RetrieveOptions turns an absent filter into MetadataFilter.all(), so that is what "no filter" looks like
        if (!options.filter().equals(MetadataFilter.all()) || options.minScore() != null || options.maxChars() != null) {
            return delegate.retrieve(query, options);
        }
        String key = options.topK() + "\n" + query;
        if (!key.equals(lastKey)) {
            last = delegate.retrieve(query, options);
            lastKey = key;
        }
        return last;
    }
}
