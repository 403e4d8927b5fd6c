package io.corpora.spi.loader;

import io.corpora.spi.PluginProvider;
import java.util.Set;

/** Creates {@link DocumentLoader}s for the media types it declares; discovered with {@link java.util.ServiceLoader}. */
public interface DocumentLoaderProvider extends PluginProvider<DocumentLoader> {

    /** Media types this loader reads, lower-case, e.g. {@code application/pdf}. */
    Set<String> mediaTypes();

    /** File extensions (without dot) for when a media type is missing or generic. */
    default Set<String> fileExtensions() {
        return Set.of();
    }
}
