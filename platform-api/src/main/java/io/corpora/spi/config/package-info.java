/**
 * Plugin configuration: the options a provider declares ({@link io.corpora.spi.config.ConfigOption}, with types and
 * bounds), the validated values it receives ({@link io.corpora.spi.config.PluginConfig}) and its {@link
 * io.corpora.spi.config.PluginContext}.
 */
package io.corpora.spi.config;
