package io.corpora.runtime.guard;

import io.corpora.spi.MetadataFilter;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;

/**
 * A filter hook seen through one tenant's guard. Its failures (timeout, open breaker) are exceptions like any other
 * hook failure, so the request still fails closed.
 */
public final class GuardedFilterHook implements RetrievalFilterHook {

    private final RetrievalFilterHook delegate;
    private final PluginCallGuard guard;

    public GuardedFilterHook(RetrievalFilterHook delegate, PluginCallGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    @Override
    public MetadataFilter filterFor(Actor actor) {
        return guard.call("filterFor", () -> delegate.filterFor(actor));
    }
}
