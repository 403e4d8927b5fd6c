/**
 * Plugin loading: one isolated class loader per plugin (it sees the SPI and the JDK only), providers found with {@link
 * java.util.ServiceLoader} and kept in a {@link io.corpora.plugin.loader.PluginRegistry}, problems reported per file.
 */
package io.corpora.plugin.loader;
