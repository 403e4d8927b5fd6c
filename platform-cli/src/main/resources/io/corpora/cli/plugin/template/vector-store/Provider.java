package {{package}};

import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.util.List;

/** Creates {@link {{Class}}VectorStore}s. Tenants select it as {@code store: {provider: {{name}}}}. */
public final class {{Class}}VectorStoreProvider implements VectorStoreProvider {

    @Override
    public String name() {
        return "{{name}}";
    }

    @Override
    public String description() {
        return "{{name}}: replace this with the backend your store talks to";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder("metric", ConfigType.ENUM).defaultValue("cosine").allowedValues("cosine", "l2", "inner")
                        .description("Similarity of query and chunk vectors.").build(),
                ConfigOption.builder("dimension", ConfigType.INT).defaultValue(384).minimum(1).maximum(65_536)
                        .description("Width of the vectors the store holds.").build());
    }

    @Override
    public VectorStore create(PluginContext context, PluginConfig config) {
        VectorSimilarity metric = VectorSimilarity.parse(config.requireString("metric"));
        return new {{Class}}VectorStore(metric, config.getInt("dimension"));
    }
}
