package {{package}};

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import java.util.List;

/** Creates {@link {{Class}}Generator}s. Tenants select it as {@code generator: {provider: {{name}}}}. */
public final class {{Class}}GeneratorProvider implements GeneratorProvider {

    @Override
    public String name() {
        return "{{name}}";
    }

    @Override
    public String description() {
        return "{{name}}: replace this with the model service your generator calls";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder("model", ConfigType.STRING).defaultValue("echo-1")
                        .description("The model id reported with every generation.").build(),
                // Secrets are declared secret and configured as ${config:some.key} references, never literals.
                ConfigOption.builder("apiKey", ConfigType.STRING).secret()
                        .description("Credential of the model service (unused by the echo starting point).").build());
    }

    @Override
    public Generator create(PluginContext context, PluginConfig config) {
        return new {{Class}}Generator(config.requireString("model"));
    }
}
