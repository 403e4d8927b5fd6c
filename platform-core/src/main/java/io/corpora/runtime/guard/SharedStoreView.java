package io.corpora.runtime.guard;

import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import java.util.Set;

/**
 * One tenant's view of a shared store instance, which a subclass wraps call by call: what is not a data call (the
 * capabilities, the health check) goes straight to the shared instance, and closing the view leaves that instance open
 * for its owner to close.
 */
public abstract class SharedStoreView implements VectorStore {

    protected final VectorStore delegate;

    protected SharedStoreView(VectorStore delegate) {
        this.delegate = delegate;
    }

    @Override
    public final Set<StoreCapability> capabilities() {
        return delegate.capabilities();
    }

    @Override
    public final void checkHealth() {
        delegate.checkHealth();
    }

    /** The shared instance is closed by its owner. */
    @Override
    public final void close() {}

    @Override
    public final String toString() {
        return delegate.toString();
    }
}
