package io.corpora.spi.embed;

import io.corpora.spi.PluginProvider;

/** Creates {@link Embedder}s; discovered with {@link java.util.ServiceLoader}. */
public interface EmbedderProvider extends PluginProvider<Embedder> {}
