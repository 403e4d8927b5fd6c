package io.corpora.engine.retriever;

import io.corpora.spi.Namespace;
import io.corpora.spi.Passage;
import io.corpora.spi.RetrieveOptions;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.List;
import java.util.Objects;

/** One search of a bound store namespace, shared by the vector and keyword retrievers. */
final class StoreLeg {

    private final String name;
    private final VectorStore store;
    private final Namespace namespace;

    StoreLeg(String name, VectorStore store, Namespace namespace, StoreCapability required) {
        this.name = name;
        this.store = Objects.requireNonNull(store, "store");
        this.namespace = Objects.requireNonNull(namespace, "namespace");
        if (!store.capabilities().contains(required)) {
            throw new IllegalArgumentException("the " + name + " retriever needs a store with " + required + "; "
                    + store.getClass().getSimpleName() + " offers " + store.capabilities());
        }
    }

    static void requireQuery(String query) {
        if (query == null || query.isBlank()) {
            throw new IllegalArgumentException("query must not be blank");
        }
    }

    /** Runs the request (floor pushed into it), records the leg, and shapes the result. */
    RetrievalResult run(SearchRequest request, RetrieveOptions options, RetrievalDiagnostics.Builder diagnostics) {
        return shaped(hits(request, diagnostics), options, diagnostics);
    }

    PreparedSearch prepare(SearchRequest request) {
        return PreparedSearch.of(store, namespace, request);
    }

    /** The checked hits of a fetched search, recorded as this leg (the store call's nanos plus the checks') and shaped. */
    RetrievalResult finish(PreparedSearch search, long fetchNanos, RetrieveOptions options, RetrievalDiagnostics.Builder diagnostics) {
        long start = System.nanoTime();
        List<ScoredChunk> hits = search.hits();
        diagnostics.leg(name, hits.size(), start - fetchNanos);
        return shaped(hits, options, diagnostics);
    }

    List<ScoredChunk> hits(SearchRequest request, RetrievalDiagnostics.Builder diagnostics) {
        long start = System.nanoTime();
        List<ScoredChunk> hits = store.search(namespace, request);
        diagnostics.leg(name, hits.size(), start);
        return hits;
    }

    private RetrievalResult shaped(List<ScoredChunk> hits, RetrieveOptions options, RetrievalDiagnostics.Builder diagnostics) {
        if (options.minScore() != null && !store.capabilities().contains(StoreCapability.MIN_SCORE_PUSHDOWN)) {
            diagnostics.note("minScore applied by the engine after the " + name + " search (the store cannot push it down)");
        }
        List<Passage> passages = hits.stream().map(Passages::fromHit).toList();
        List<Passage> shaped = ResultShaper.shape(Passages.ranked(passages), options, true, diagnostics);
        return new RetrievalResult(shaped, diagnostics.build());
    }

    VectorStore store() {
        return store;
    }
}
