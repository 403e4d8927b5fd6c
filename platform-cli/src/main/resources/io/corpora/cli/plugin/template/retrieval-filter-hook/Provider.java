package {{package}};

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.filter.RetrievalFilterHookProvider;
import java.util.List;

/** Creates {@link {{Class}}RetrievalFilterHook}s. Tenants select it as {@code access: {filterHook: {provider: {{name}}}}}. */
public final class {{Class}}RetrievalFilterHookProvider implements RetrievalFilterHookProvider {

    @Override
    public String name() {
        return "{{name}}";
    }

    @Override
    public String description() {
        return "{{name}}: a chunk is visible when its metadata key equals the actor's claim of the same name";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder("claim", ConfigType.STRING).defaultValue("department")
                        .description("The token claim that holds the actor's value (a string).").build(),
                ConfigOption.builder("metadataKey", ConfigType.STRING).defaultValue("department")
                        .description("The document metadata key compared with it.").build());
    }

    @Override
    public RetrievalFilterHook create(PluginContext context, PluginConfig config) {
        return new {{Class}}RetrievalFilterHook(config.requireString("claim"), config.requireString("metadataKey"));
    }
}
