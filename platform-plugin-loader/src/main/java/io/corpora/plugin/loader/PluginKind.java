package io.corpora.plugin.loader;

import io.corpora.spi.PluginProvider;
import io.corpora.spi.embed.EmbedderProvider;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.spi.filter.RetrievalFilterHookProvider;
import io.corpora.spi.generate.Generator;
import io.corpora.spi.generate.GeneratorProvider;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.util.Arrays;
import java.util.Optional;

/** The kinds of provider a plugin can contribute, each with its provider interface and its service interface. */
public enum PluginKind {
    VECTOR_STORE("vector-store", VectorStoreProvider.class, VectorStore.class),
    EMBEDDER("embedder", EmbedderProvider.class, Embedder.class),
    RERANKER("reranker", RerankerProvider.class, Reranker.class),
    DOCUMENT_LOADER("document-loader", DocumentLoaderProvider.class, DocumentLoader.class),
    RETRIEVAL_FILTER_HOOK("retrieval-filter-hook", RetrievalFilterHookProvider.class, RetrievalFilterHook.class),
    GENERATOR("generator", GeneratorProvider.class, Generator.class);

    private final String label;
    private final Class<? extends PluginProvider<?>> providerType;
    private final Class<?> serviceType;

    PluginKind(String label, Class<? extends PluginProvider<?>> providerType, Class<?> serviceType) {
        this.label = label;
        this.providerType = providerType;
        this.serviceType = serviceType;
    }

    public String label() {
        return label;
    }

    public Class<? extends PluginProvider<?>> providerType() {
        return providerType;
    }

    public Class<?> serviceType() {
        return serviceType;
    }

    public static Optional<PluginKind> of(Class<?> providerType) {
        return Arrays.stream(values()).filter(k -> k.providerType.equals(providerType)).findFirst();
    }

    public static PluginKind require(Class<?> providerType) {
        return of(providerType).orElseThrow(() -> new IllegalArgumentException("not a provider interface: " + providerType.getName()));
    }
}
