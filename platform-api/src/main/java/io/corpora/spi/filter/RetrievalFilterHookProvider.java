package io.corpora.spi.filter;

import io.corpora.spi.PluginProvider;

/** Creates {@link RetrievalFilterHook}s; discovered with {@link java.util.ServiceLoader}. */
public interface RetrievalFilterHookProvider extends PluginProvider<RetrievalFilterHook> {}
