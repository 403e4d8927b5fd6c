package io.corpora.store.lucene;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import io.corpora.spi.store.VectorStore;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.apache.lucene.analysis.en.EnglishAnalyzer;
import org.apache.lucene.index.IndexWriter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The plugin works the way the server loads it: its classes and Lucene in a class loader of their own whose parent
 * sees only platform-api and the JDK. ServiceLoader must find the provider, and Lucene must find its codecs and
 * analyzers through its own SPI inside that loader. All calls cross the loader boundary reflectively.
 */
class IsolatedClassLoaderTest {

    @TempDir
    Path data;

    private static URL locationOf(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation();
    }

    @Test
    void theProviderWritesAndSearchesFromAnIsolatedPluginClassLoader() throws Exception {
        try (URLClassLoader spi = new URLClassLoader(new URL[] {locationOf(VectorStore.class)}, ClassLoader.getPlatformClassLoader());
             URLClassLoader plugin = new URLClassLoader(new URL[] {locationOf(LuceneVectorStore.class), locationOf(IndexWriter.class),
                     locationOf(EnglishAnalyzer.class)}, spi)) {
            Class<?> providerType = spi.loadClass("io.corpora.spi.store.VectorStoreProvider");
            assertNotSame(VectorStore.class, spi.loadClass("io.corpora.spi.store.VectorStore"), "the SPI must come from the isolated parent");
            Object provider = ServiceLoader.load(providerType, plugin).stream().map(ServiceLoader.Provider::get)
                    .filter(p -> call(p, "name").equals("lucene")).findFirst().orElseThrow();
            assertEquals(plugin, provider.getClass().getClassLoader());

            Class<?> contextType = spi.loadClass("io.corpora.spi.config.PluginContext");
            Class<?> configType = spi.loadClass("io.corpora.spi.config.PluginConfig");
            Object context = contextType.getMethod("of", Path.class, String.class).invoke(null, data, "isolated");
            Object config = configType.getMethod("validate", String.class, List.class, Map.class)
                    .invoke(null, "lucene", call(provider, "configOptions"), Map.of("quantization", "int8"));
            try (AutoCloseable store = (AutoCloseable) provider.getClass().getMethod("create", contextType, configType)
                    .invoke(provider, context, config)) {
                Object namespace = spi.loadClass("io.corpora.spi.Namespace").getMethod("of", String.class).invoke(null, "acme");
                Class<?> chunkType = spi.loadClass("io.corpora.spi.Chunk");
                Object chunk = chunkType.getConstructor(String.class, String.class, int.class, String.class, List.class, Map.class)
                        .newInstance("d#0", "d", 0, "isolated lodging policy", List.of(), Map.of("k", "v"));
                Object embedded = spi.loadClass("io.corpora.spi.EmbeddedChunk").getConstructor(chunkType, float[].class)
                        .newInstance(chunk, new float[] {0.1f, 0.2f, 0.3f, 0.4f});
                Class<?> namespaceType = namespace.getClass();
                store.getClass().getMethod("upsert", namespaceType, List.class).invoke(store, namespace, List.of(embedded));

                Class<?> filterType = spi.loadClass("io.corpora.spi.MetadataFilter");
                Object all = filterType.getMethod("all").invoke(null);
                assertEquals(1L, store.getClass().getMethod("count", namespaceType, filterType).invoke(store, namespace, all));
                Class<?> requestType = spi.loadClass("io.corpora.spi.store.SearchRequest");
                Object keyword = requestType.getMethod("keyword", String.class, int.class, filterType, Double.class, String.class)
                        .invoke(null, "lodges", 5, all, null, null);
                List<?> hits = (List<?>) store.getClass().getMethod("search", namespaceType, requestType).invoke(store, namespace, keyword);
                assertEquals(1, hits.size(), "English stemming works inside the isolated loader");
                Object vector = requestType.getMethod("vector", float[].class, int.class, filterType, Double.class, String.class)
                        .invoke(null, new float[] {0.1f, 0.2f, 0.3f, 0.4f}, 5, all, null, null);
                hits = (List<?>) store.getClass().getMethod("search", namespaceType, requestType).invoke(store, namespace, vector);
                assertEquals(1, hits.size(), "the int8 HNSW codec works inside the isolated loader");
            }
            // Reopening reads the segments back through Lucene's codec SPI lookup (by name) inside the plugin loader.
            try (AutoCloseable store = (AutoCloseable) provider.getClass().getMethod("create", contextType, configType)
                    .invoke(provider, context, config)) {
                Object namespace = spi.loadClass("io.corpora.spi.Namespace").getMethod("of", String.class).invoke(null, "acme");
                Class<?> filterType = spi.loadClass("io.corpora.spi.MetadataFilter");
                Class<?> requestType = spi.loadClass("io.corpora.spi.store.SearchRequest");
                Object all = filterType.getMethod("all").invoke(null);
                Object vector = requestType.getMethod("vector", float[].class, int.class, filterType, Double.class, String.class)
                        .invoke(null, new float[] {0.1f, 0.2f, 0.3f, 0.4f}, 5, all, null, null);
                List<?> hits = (List<?>) store.getClass().getMethod("search", namespace.getClass(), requestType).invoke(store, namespace, vector);
                assertEquals(1, hits.size(), "the reopened index is readable inside the isolated loader");
            }
        }
    }

    private static Object call(Object target, String method) {
        try {
            Method m = target.getClass().getMethod(method);
            m.setAccessible(true);
            return m.invoke(target);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
