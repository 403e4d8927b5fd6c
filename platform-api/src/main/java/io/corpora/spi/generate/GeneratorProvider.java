package io.corpora.spi.generate;

import io.corpora.spi.PluginProvider;

/**
 * Creates {@link Generator}s; discovered with {@link java.util.ServiceLoader} through
 * {@code META-INF/services/io.corpora.spi.generate.GeneratorProvider}. Credentials are options declared
 * {@link io.corpora.spi.config.ConfigOption#secret() secret}: the server resolves the {@code ${config:key}} reference a
 * tenant gives for them and hands the provider the value. Since SPI 1.2.
 */
public interface GeneratorProvider extends PluginProvider<Generator> {}
