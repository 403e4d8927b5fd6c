package io.corpora.spi;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.util.List;

/**
 * A factory for one kind of plugin instance (Keycloak's ProviderFactory, Trino's ConnectorFactory).
 * Providers are discovered with {@link java.util.ServiceLoader}, must have a public no-arg constructor,
 * and must be cheap to construct: real work belongs in {@link #create}.
 *
 * @param <T> the service the provider creates
 */
public interface PluginProvider<T> {

    /** Unique among providers of the same kind across all loaded plugins; lower-case, e.g. {@code lucene}. */
    String name();

    /** One line for operators. */
    default String description() {
        return "";
    }

    /** Every option {@link #create} reads; undeclared keys are refused before create is called. */
    default List<ConfigOption> configOptions() {
        return List.of();
    }

    /**
     * Checks a configuration, already valid against {@link #configOptions()}, for what the options cannot say (a URL's
     * scheme, options that exclude each other, a template's syntax), without creating anything, reading a file or
     * reaching a backend: the server calls it where a definition enters (the admin API, tenants-config files), so such a
     * mistake is a 400 at its field there rather than a plugin that will not start at the tenant's first call. What
     * depends on the server the instance runs on (a file, a host) is for {@link #create} alone, which refuses at least
     * what this refuses. Since SPI 1.5.
     *
     * @throws io.corpora.spi.config.InvalidConfigException listing every problem
     */
    default void validate(PluginConfig config) {}

    /**
     * Creates an instance from a configuration already validated against {@link #configOptions()}. A configuration
     * the options cannot express as wrong (e.g. a model file that does not exist) is an
     * {@link io.corpora.spi.config.InvalidConfigException}, answered 400; a backend that cannot be reached a
     * {@link PluginException} of kind {@link FailureKind#TRANSIENT}.
     */
    T create(PluginContext context, PluginConfig config);
}
