package {{package}};

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.util.List;

/** Creates {@link {{Class}}Reranker}s. Tenants select it as {@code reranker: {provider: {{name}}}}. */
public final class {{Class}}RerankerProvider implements RerankerProvider {

    @Override
    public String name() {
        return "{{name}}";
    }

    @Override
    public String description() {
        return "{{name}}: replace this with what your reranker does";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(ConfigOption.builder("minWordLength", ConfigType.INT).defaultValue(3).minimum(1).maximum(20)
                .description("Query words shorter than this are ignored.").build());
    }

    @Override
    public Reranker create(PluginContext context, PluginConfig config) {
        return new {{Class}}Reranker(config.getInt("minWordLength"));
    }
}
