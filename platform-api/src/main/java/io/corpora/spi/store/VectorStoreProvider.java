package io.corpora.spi.store;

import io.corpora.spi.PluginProvider;

/** Creates {@link VectorStore}s; discovered with {@link java.util.ServiceLoader}. */
public interface VectorStoreProvider extends PluginProvider<VectorStore> {}
