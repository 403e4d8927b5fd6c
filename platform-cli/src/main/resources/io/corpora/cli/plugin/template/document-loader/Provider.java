package {{package}};

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.List;
import java.util.Set;

/** Creates {@link {{Class}}DocumentLoader}s for the media types it declares. */
public final class {{Class}}DocumentLoaderProvider implements DocumentLoaderProvider {

    /** Replace with the media type(s) your format is uploaded as. */
    static final String MEDIA_TYPE = "text/x-{{name}}";

    @Override
    public String name() {
        return "{{name}}";
    }

    @Override
    public String description() {
        return "{{name}}: replace this with the format your loader reads";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of(MEDIA_TYPE);
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("{{extension}}"); // lower case letters and digits, without the dot
    }

    @Override
    public List<ConfigOption> configOptions() {
        return List.of(
                ConfigOption.builder("maxBytes", ConfigType.LONG).defaultValue(10_485_760L).minimum(1L).maximum(1_073_741_824L)
                        .description("Larger inputs are refused as TOO_LARGE before they are decoded.").build(),
                ConfigOption.builder("timeout", ConfigType.DURATION).defaultValue("30s").minimum("1ms").maximum("10m")
                        .description("A document that takes longer to load is refused as TIMEOUT.").build());
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        return new {{Class}}DocumentLoader(config.getLong("maxBytes"), config.getDuration("timeout"));
    }
}
