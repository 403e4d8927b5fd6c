package io.corpora.testkit;

import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import java.nio.file.Path;
import java.util.Map;

/** Document loaders in a loader plugin's own tests, discovered and configured as the server does ({@link Providers}). */
public final class Loaders {

    private Loaders() {}

    public static DocumentLoaderProvider provider(String name) {
        return Providers.find(DocumentLoaderProvider.class, name);
    }

    /** The loader {@code name} with {@code options} validated against its declared options; data under {@code target}. */
    public static DocumentLoader create(String name, Map<String, String> options) {
        return Providers.create(DocumentLoaderProvider.class, name, options, Path.of("target"));
    }
}
