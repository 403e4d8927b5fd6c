package io.corpora.store.lucene;

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.VectorStoreContract;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import org.junit.jupiter.api.io.TempDir;

/** The shared store contract on a real Lucene index on disk, created through the provider like the server does. */
public class LuceneVectorStoreContractTest extends VectorStoreContract {

    @TempDir
    Path dataDirectory;

    private int stores;

    /** Extra options on top of the metric; subclasses run the same contract under other settings. */
    protected Map<String, String> options() {
        return Map.of();
    }

    @Override
    protected VectorStore newStore(VectorSimilarity metric, int dimension) {
        LuceneVectorStoreProvider provider = new LuceneVectorStoreProvider();
        String metricName = switch (metric) {
            case COSINE -> "cosine";
            case L2 -> "l2";
            case INNER_PRODUCT -> "inner";
        };
        Map<String, String> options = new HashMap<>(options());
        options.put("metric", metricName);
        PluginConfig config = PluginConfig.validate(provider.name(), provider.configOptions(), options);
        Path directory = dataDirectory.resolve("store-" + (stores++) + "-" + metricName.toLowerCase(Locale.ROOT));
        return provider.create(PluginContext.of(directory, "store-lucene-test"), config);
    }
}
