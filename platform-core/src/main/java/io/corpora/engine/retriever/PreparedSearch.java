package io.corpora.engine.retriever;

import io.corpora.spi.Namespace;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import java.util.List;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;

/**
 * One store search in two steps, so a composite retrieval can run a leg's store call on another thread while the
 * checks of its hits stay on the caller's: {@link #fetch} calls the store, on any thread; {@link #hits} returns the
 * hits once checked, on the thread that needs them — a check may read the caller's context (the isolation guard's
 * version oracle reads the control plane in the caller's transaction). {@code hits} after {@code fetch} has returned,
 * never before.
 */
public interface PreparedSearch {

    void fetch();

    List<ScoredChunk> hits();

    /** A store that checks what it returns and keeps those checks in the second step ({@code IsolationGuard}). */
    interface Source {
        PreparedSearch prepare(Namespace namespace, SearchRequest request);
    }

    /** The search of {@code store}; a store that checks nothing returns its hits as fetched. */
    static PreparedSearch of(VectorStore store, Namespace namespace, SearchRequest request) {
        if (store instanceof Source source) {
            return source.prepare(namespace, request);
        }
        return of(() -> store.search(namespace, request), UnaryOperator.identity());
    }

    /** {@code fetcher} in the first step, {@code checks} of what it fetched in the second. */
    static PreparedSearch of(Supplier<List<ScoredChunk>> fetcher, UnaryOperator<List<ScoredChunk>> checks) {
        return new PreparedSearch() {
            private volatile List<ScoredChunk> fetched;

            @Override
            public void fetch() {
                fetched = fetcher.get();
            }

            @Override
            public List<ScoredChunk> hits() {
                if (fetched == null) {
                    throw new IllegalStateException("hits() of a search that was not fetched");
                }
                return checks.apply(fetched);
            }
        };
    }
}
