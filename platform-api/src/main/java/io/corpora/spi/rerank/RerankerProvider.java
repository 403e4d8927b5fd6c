package io.corpora.spi.rerank;

import io.corpora.spi.PluginProvider;

/** Creates {@link Reranker}s; discovered with {@link java.util.ServiceLoader}. */
public interface RerankerProvider extends PluginProvider<Reranker> {}
