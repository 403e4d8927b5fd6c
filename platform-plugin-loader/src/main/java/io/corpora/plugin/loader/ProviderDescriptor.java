package io.corpora.plugin.loader;

import io.corpora.spi.config.ConfigOption;
import java.util.List;

/** What a loaded provider declares, for listings and validation. */
public record ProviderDescriptor(PluginKind kind, String name, String description, String className, List<ConfigOption> options) {
    public ProviderDescriptor {
        options = List.copyOf(options);
    }
}
