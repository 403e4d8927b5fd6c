package io.corpora.store.lucene;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.util.List;
import java.util.Set;

/** The embedded default store: Lucene indexes on local disk, one per namespace, serving vector and BM25 search. */
public final class LuceneVectorStoreProvider implements VectorStoreProvider {

    public static final String NAME = "lucene";

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "Embedded Apache Lucene store on local disk: HNSW vectors + BM25 text, one index per tenant namespace";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return LuceneStoreSettings.options();
    }

    /**
     * Only the index directory: every other option (HNSW and search parameters, BM25, commit policy) applies to the same
     * indexes. The metric and analyzer are fixed per index once it holds data; each index checks them when it opens.
     */
    @Override
    public Set<String> locationOptions() {
        return Set.of(LuceneStoreSettings.DIRECTORY);
    }

    @Override
    public VectorStore create(PluginContext context, PluginConfig config) {
        return new LuceneVectorStore(LuceneStoreSettings.from(context, config), context.logger());
    }
}
