package io.corpora.ingest;

import io.corpora.plugin.loader.PluginRegistry;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;

/** The loaders of every loaded {@link DocumentLoaderProvider}, by media type and file extension. */
public final class DocumentLoaders {

    private final Map<String, DocumentLoader> byMediaType = new TreeMap<>();
    private final Map<String, DocumentLoader> byExtension = new TreeMap<>();
    private final Map<DocumentLoader, String> providers = new java.util.IdentityHashMap<>();

    public DocumentLoaders(PluginRegistry plugins, Path dataDirectory) {
        for (DocumentLoaderProvider provider : plugins.providers(DocumentLoaderProvider.class)) {
            DocumentLoader loader = plugins.create(DocumentLoaderProvider.class, provider.name(),
                    PluginContext.of(dataDirectory.resolve("document-loader").resolve(provider.name()), "corpora.plugin." + provider.name()),
                    Map.of());
            providers.put(loader, provider.name());
            provider.mediaTypes().forEach(t -> byMediaType.putIfAbsent(t.toLowerCase(Locale.ROOT), loader));
            provider.fileExtensions().forEach(e -> byExtension.putIfAbsent(e.toLowerCase(Locale.ROOT), loader));
        }
    }

    /** The loader for a media type, else for the file name's extension (for generic or missing media types). */
    public Optional<DocumentLoader> find(String mediaType, String fileName) {
        DocumentLoader loader = byMediaType.get(mediaType);
        if (loader != null) {
            return Optional.of(loader);
        }
        int dot = fileName == null ? -1 : fileName.lastIndexOf('.');
        return dot < 0 ? Optional.empty() : Optional.ofNullable(byExtension.get(fileName.substring(dot + 1).toLowerCase(Locale.ROOT)));
    }

    /** The provider name of a loader this returned (e.g. for keying its fault-tolerance guard). */
    public String providerOf(DocumentLoader loader) {
        return providers.getOrDefault(loader, loader.getClass().getName());
    }

    public TreeSet<String> mediaTypes() {
        return new TreeSet<>(byMediaType.keySet());
    }
}
