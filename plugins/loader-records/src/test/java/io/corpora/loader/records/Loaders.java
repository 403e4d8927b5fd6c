package io.corpora.loader.records;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;

/** Creates loaders the way the server does: discovered by name, configuration validated against the declarations. */
final class Loaders {

    private Loaders() {}

    static DocumentLoaderProvider provider(String name) {
        return ServiceLoader.load(DocumentLoaderProvider.class).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no provider named " + name));
    }

    static DocumentLoader create(String name, Map<String, String> options) {
        DocumentLoaderProvider provider = provider(name);
        return provider.create(PluginContext.of(Path.of("target"), "test"),
                PluginConfig.validate(name, provider.configOptions(), options));
    }
}
