package io.corpora.rerank.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The server loads embedder-onnx and reranker-onnx each in its own class loader (SPI shared, nothing else), so
 * ONNX Runtime and its native library are loaded twice in one JVM. This proves that works: two isolated loaders
 * over this plugin's classes and bundled jars each create a working maxsim reranker.
 */
class IsolatedPluginLoadersTest {

    /** Like the server's plugin class loader: JDK parent, io.corpora.spi from the host, everything else own. */
    private static final class IsolatedLoader extends URLClassLoader {
        IsolatedLoader(String name, URL[] urls) {
            super(name, urls, ClassLoader.getPlatformClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("io.corpora.spi.")) {
                return IsolatedPluginLoadersTest.class.getClassLoader().loadClass(name);
            }
            return super.loadClass(name, resolve);
        }
    }

    @Test
    void twoPluginLoadersEachRunTheirOwnOnnxRuntime(@TempDir Path dir) throws Exception {
        URL[] bundle = bundleUrls();
        try (IsolatedLoader a = new IsolatedLoader("plugin-a", bundle); IsolatedLoader b = new IsolatedLoader("plugin-b", bundle)) {
            RerankerProvider fromA = maxsim(a);
            RerankerProvider fromB = maxsim(b);
            assertSame(a, fromA.getClass().getClassLoader());
            assertSame(b, fromB.getClass().getClassLoader());
            assertNotSame(fromA.getClass(), fromB.getClass());
            assertNotSame(MaxSimRerankerProvider.class, fromA.getClass());
            List<String> texts = List.of("Water boils at 100 degrees Celsius.", "The orchestra played Beethoven.");
            try (Reranker ra = create(fromA, dir); Reranker rb = create(fromB, dir)) {
                double[] scoresA = ra.score("boiling point of water", texts);
                double[] scoresB = rb.score("boiling point of water", texts);
                assertEquals(2, scoresA.length);
                assertArrayEquals(scoresA, scoresB, "two independent runtimes, same model, same scores");
            }
        }
    }

    private static Reranker create(RerankerProvider provider, Path dir) {
        PluginConfig config = PluginConfig.validate(provider.name(), provider.configOptions(), Map.of("workers", "1"));
        return provider.create(PluginContext.of(dir, "isolated"), config);
    }

    private static RerankerProvider maxsim(ClassLoader loader) {
        return ServiceLoader.load(RerankerProvider.class, loader).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("maxsim")).findFirst().orElseThrow();
    }

    /** This plugin's classes plus the runtime jars its bundle carries, taken from the test class path. */
    private static URL[] bundleUrls() throws Exception {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry);
            String name = path.getFileName().toString();
            boolean ownClasses = path.endsWith(Path.of("target", "classes"));
            boolean bundled = name.startsWith("onnx-common") || name.startsWith("onnxruntime-")
                    || name.startsWith("langchain4j-embeddings-bge") || name.startsWith("jackson-core-");
            if (ownClasses || bundled) {
                urls.add(path.toUri().toURL());
            }
        }
        assertEquals(5, urls.size(), "classes + onnx-common + onnxruntime + bge + jackson-core: " + urls);
        return urls.toArray(URL[]::new);
    }
}
