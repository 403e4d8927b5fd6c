package io.corpora.runtime.guard;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import java.util.List;
import java.util.Optional;

/** A shared embedder seen through one tenant's guard: model calls are guarded, descriptive ones are not. */
public final class GuardedEmbedder implements Embedder {

    private final Embedder delegate;
    private final PluginCallGuard guard;

    public GuardedEmbedder(Embedder delegate, PluginCallGuard guard) {
        this.delegate = delegate;
        this.guard = guard;
    }

    @Override
    public EmbedderFingerprint fingerprint() {
        return delegate.fingerprint();
    }

    @Override
    public int dimension() {
        return delegate.dimension();
    }

    @Override
    public List<float[]> embedDocuments(List<String> texts) {
        return guard.call("embedDocuments", () -> delegate.embedDocuments(texts));
    }

    @Override
    public float[] embedQuery(String query) {
        return guard.call("embedQuery", () -> delegate.embedQuery(query));
    }

    @Override
    public List<float[]> embedQueries(List<String> queries) {
        return guard.call("embedQueries", () -> delegate.embedQueries(queries));
    }

    @Override
    public int maxInputTokens() {
        return delegate.maxInputTokens();
    }

    @Override
    public Optional<TokenCounter> tokenCounter() {
        return delegate.tokenCounter();
    }

    /** The shared instance is closed by its owner, not by one tenant's view of it. */
    @Override
    public void close() {}
}
