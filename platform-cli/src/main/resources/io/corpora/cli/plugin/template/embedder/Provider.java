package {{package}};

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import java.util.List;

/** Creates {@link {{Class}}Embedder}s. Tenants select it as {@code embedder: {provider: {{name}}}}. */
public final class {{Class}}EmbedderProvider implements EmbedderProvider {

    @Override
    public String name() {
        return "{{name}}";
    }

    @Override
    public String description() {
        return "{{name}}: replace this with what your embedder does";
    }

    @Override
    public List<ConfigOption> configOptions() {
        // Declared bounds are validated by the server before create() is called: no hand-written range checks.
        return List.of(ConfigOption.builder("dimension", ConfigType.INT).defaultValue(256).minimum(8).maximum(4096)
                .description("Width of the vectors.").build());
    }

    @Override
    public Embedder create(PluginContext context, PluginConfig config) {
        return new {{Class}}Embedder(config.getInt("dimension"));
    }
}
