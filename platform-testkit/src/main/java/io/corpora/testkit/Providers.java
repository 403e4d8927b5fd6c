package io.corpora.testkit;

import io.corpora.spi.PluginProvider;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.nio.file.Path;
import java.util.Map;
import java.util.ServiceLoader;

/**
 * Creates plugin instances in a plugin's own tests the way the server does: the provider discovered by name through
 * {@link ServiceLoader}, the configuration validated against its declared options before {@code create}.
 */
public final class Providers {

    private Providers() {}

    public static <P extends PluginProvider<?>> P find(Class<P> kind, String name) {
        return ServiceLoader.load(kind).stream()
                .map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(name))
                .findFirst()
                .orElseThrow(() -> new AssertionError("no " + kind.getSimpleName() + " named " + name));
    }

    public static <T, P extends PluginProvider<T>> T create(Class<P> kind, String name, Map<String, String> options, Path dataDirectory) {
        P provider = find(kind, name);
        PluginConfig config = PluginConfig.validate(name, provider.configOptions(), options);
        return provider.create(PluginContext.of(dataDirectory, "test"), config);
    }
}
