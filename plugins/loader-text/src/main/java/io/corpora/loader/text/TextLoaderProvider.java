package io.corpora.loader.text;

import io.corpora.loader.common.LoaderLimits;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.util.List;
import java.util.Set;

/** Plain text: strict charset decoding, one prose section. */
public final class TextLoaderProvider implements DocumentLoaderProvider {

    static final long DEFAULT_MAX_BYTES = 10L * 1024 * 1024;
    static final String DEFAULT_TIMEOUT = "10s";

    @Override
    public String name() {
        return "text";
    }

    @Override
    public String description() {
        return "Plain text (BOM, declared charset or strict UTF-8; invalid bytes are an error, never replacement characters)";
    }

    @Override
    public Set<String> mediaTypes() {
        return Set.of("text/plain");
    }

    @Override
    public Set<String> fileExtensions() {
        return Set.of("txt", "text", "log");
    }

    @Override
    public List<ConfigOption> configOptions() {
        return LoaderLimits.options(DEFAULT_MAX_BYTES, DEFAULT_TIMEOUT);
    }

    @Override
    public DocumentLoader create(PluginContext context, PluginConfig config) {
        return new TextLoader(LoaderLimits.from(config));
    }
}
