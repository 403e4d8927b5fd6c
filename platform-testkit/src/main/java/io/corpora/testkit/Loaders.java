package io.corpora.testkit;

import io.corpora.spi.loader.DocumentLoader;
import io.corpora.spi.loader.DocumentLoaderProvider;
import io.corpora.spi.loader.LoadRequest;
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

    /**
     * Wall seconds per {@code load} of {@code request}, the mean of {@code runs} after three unmeasured ones (the JIT's
     * first compilations): for a loader plugin's throughput measurements run by hand, never a test's assertion.
     */
    public static double secondsPerLoad(DocumentLoader loader, LoadRequest request, int runs) {
        for (int i = 0; i < 3; i++) {
            loader.load(request);
        }
        long start = System.nanoTime();
        for (int i = 0; i < runs; i++) {
            loader.load(request);
        }
        return (System.nanoTime() - start) / 1e9 / runs;
    }
}
