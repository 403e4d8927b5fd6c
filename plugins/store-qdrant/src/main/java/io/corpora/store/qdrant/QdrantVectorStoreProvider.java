package io.corpora.store.qdrant;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.util.List;
import java.util.Set;

/** The {@code qdrant} store: chunks in Qdrant collections shared by tenants, searched over gRPC. */
public final class QdrantVectorStoreProvider implements VectorStoreProvider {

    public static final String NAME = "qdrant";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Qdrant over gRPC: one collection per vector width shared by tenants (is_tenant payload indexes), "
                + "tiered shards for large tenants, payload filters, a BM25 sparse-vector keyword leg";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return QdrantOptions.all();
    }

    /**
     * Which server and which collections hold the chunks. The metric and the sharding method are fixed per collection and
     * checked when a collection is first used; every other option (search breadth, batching, BM25 constants) applies to the
     * same data.
     */
    @Override
    public Set<String> locationOptions() {
        return Set.of(QdrantOptions.URL, QdrantOptions.COLLECTION);
    }

    /** The URL, collection and options as {@link #create} reads them (the trust store file is for create: it is the server's). */
    @Override
    public void validate(PluginConfig config) {
        QdrantSettings.from(config);
    }

    /** Connects lazily: no call reaches Qdrant until the store is used, so a server that is down fails readiness, not creation. */
    @Override
    public VectorStore create(PluginContext context, PluginConfig config) {
        QdrantSettings settings = QdrantSettings.from(config);
        return new QdrantVectorStore(settings, QdrantConnection.open(settings, context.logger()), context.logger());
    }
}
