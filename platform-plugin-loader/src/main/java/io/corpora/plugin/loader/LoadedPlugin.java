package io.corpora.plugin.loader;

import java.nio.file.Path;
import java.util.List;

/**
 * A plugin that loaded: its name (jar or folder name), where it came from, its version and SPI version,
 * and the providers it contributed.
 */
public record LoadedPlugin(String name, Path location, String version, String spiVersion, List<Path> jars,
                           List<ProviderDescriptor> providers) {
    public LoadedPlugin {
        jars = List.copyOf(jars);
        providers = List.copyOf(providers);
    }
}
