package io.corpora.runtime.guard;

import io.corpora.spi.rerank.Reranker;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/** A shared reranker seen through one tenant's guard; its failures reach the engine as exceptions, which degrade. */
public final class GuardedReranker implements Reranker {

    private final Supplier<? extends Reranker> delegate;
    private final PluginCallGuard guard;

    public GuardedReranker(Reranker delegate, PluginCallGuard guard) {
        this(() -> delegate, guard);
    }

    /**
     * @param delegate where the instance comes from at each call, e.g. a creation on first use; its failure is thrown as
     *                 is, outside the guard (an instance that does not exist has no calls to time, retry or count)
     */
    public GuardedReranker(Supplier<? extends Reranker> delegate, PluginCallGuard guard) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.guard = Objects.requireNonNull(guard, "guard");
    }

    @Override
    public double[] score(String query, List<String> texts) {
        Reranker reranker = delegate.get();
        return guard.call("score", () -> reranker.score(query, texts));
    }

    /** The shared instance is closed by its owner. */
    @Override
    public void close() {}
}
