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
     * Creates an instance from a configuration already validated against {@link #configOptions()}. A configuration
     * the options cannot express as wrong (e.g. a model file that does not exist) is an
     * {@link io.corpora.spi.config.InvalidConfigException}, answered 400; a backend that cannot be reached a
     * {@link PluginException} of kind {@link FailureKind#TRANSIENT}.
     */
    T create(PluginContext context, PluginConfig config);
}
