package io.corpora.runtime.guard;

import io.corpora.spi.rerank.Reranker;
import java.util.List;

/** A shared reranker seen through one tenant's guard; its failures reach the engine as exceptions, which degrade. */
public final class GuardedReranker implements Reranker {

    private final Reranker delegate;
    private final PluginCallGuard guard;

    public GuardedReranker(Reranker delegate, PluginCallGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    @Override
    public double[] score(String query, List<String> texts) {
        return guard.call("score", () -> delegate.score(query, texts));
    }

    /** The shared instance is closed by its owner. */
    @Override
    public void close() {}
}
