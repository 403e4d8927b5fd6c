package io.corpora.runtime.guard;

import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.LoadRequest;
import io.corpora.spi.loader.LoadedDocument;

/**
 * A shared loader seen through one tenant's guard: a tenant uploading documents that make a parser hang holds at most
 * its own bulkhead's threads. An unreadable document stays a {@link DocumentLoadException} (the caller's problem).
 */
public final class GuardedDocumentLoader implements DocumentLoader {

    private final DocumentLoader delegate;
    private final PluginCallGuard guard;

    public GuardedDocumentLoader(DocumentLoader delegate, PluginCallGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    @Override
    public LoadedDocument load(LoadRequest request) throws DocumentLoadException {
        return guard.call("load", () -> delegate.load(request));
    }
}
