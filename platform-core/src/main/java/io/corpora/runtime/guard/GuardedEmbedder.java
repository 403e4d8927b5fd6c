package io.corpora.runtime.guard;

import io.corpora.engine.embed.ForwardingEmbedder;
import io.corpora.spi.embed.Embedder;
import java.util.List;

/** A shared embedder seen through one tenant's guard: model calls are guarded, descriptive ones are not. */
public final class GuardedEmbedder extends ForwardingEmbedder {

    private final PluginCallGuard guard;

    public GuardedEmbedder(Embedder delegate, PluginCallGuard guard) {
        super(delegate);
        this.guard = guard;
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
}
