package io.corpora.store.lucene;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.nio.file.Path;
import java.util.Map;

/** Creates Lucene stores the way the server does: through the provider, with validated options. */
final class StoreFixtures {

    private StoreFixtures() {}

    static LuceneVectorStore open(Path directory, Map<String, String> options) {
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        PluginConfig config = PluginConfig.validate(provider.name(), provider.configOptions(), options);
        return (LuceneVectorStore) provider.create(PluginContext.of(directory, "store-lucene-test"), config);
    }
}
