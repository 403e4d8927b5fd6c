package io.corpora.loader.text;

import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import io.corpora.testkit.Providers;
import java.nio.file.Path;
import java.util.Map;

/** Creates loaders the way the server does (see the SPI test kit's {@link Providers}). */
final class Loaders {

    private Loaders() {}

    static DocumentLoaderProvider provider(String name) {
        return Providers.find(DocumentLoaderProvider.class, name);
    }

    static DocumentLoader create(String name, Map<String, String> options) {
        return Providers.create(DocumentLoaderProvider.class, name, options, Path.of("target"));
    }
}
