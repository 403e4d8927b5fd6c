package io.corpora.rerank.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;

import com.fasterxml.jackson.core.JsonFactory;
import io.corpora.onnx.BundledModel;
import io.corpora.plugin.loader.PluginKind;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import io.corpora.testkit.PluginHarness;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The server loads embedder-onnx and reranker-onnx each in its own class loader (SPI shared, nothing else), so
 * ONNX Runtime and its native library are loaded twice in one JVM. This proves that works: the real plugin loader
 * loads this plugin twice, from two plugins directories, and each copy creates a working maxsim reranker.
 */
class IsolatedPluginLoadersTest {

    private static PluginHarness load(String name) {
        return PluginHarness.plugin(name).classes(Path.of("target", "classes"))
                .withJarOf(BundledModel.class, ai.onnxruntime.OrtEnvironment.class, JsonFactory.class)
                .withJarContaining("bge-small-en-v1.5-q.onnx").load();
    }

    @Test
    void twoPluginLoadersEachRunTheirOwnOnnxRuntime() {
        try (PluginHarness a = load("plugin-a"); PluginHarness b = load("plugin-b")) {
            ClassLoader loaderA = a.classLoaderOf(PluginKind.RERANKER, "maxsim");
            ClassLoader loaderB = b.classLoaderOf(PluginKind.RERANKER, "maxsim");
            assertNotSame(loaderA, loaderB);
            assertNotSame(MaxSimRerankerProvider.class.getClassLoader(), loaderA);
            assertNotSame(a.classOf(PluginKind.RERANKER, "maxsim", "ai.onnxruntime.OrtEnvironment"),
                    b.classOf(PluginKind.RERANKER, "maxsim", "ai.onnxruntime.OrtEnvironment"),
                    "two copies of ONNX Runtime");
            List<String> texts = List.of("Water boils at 100 degrees Celsius.", "The orchestra played Beethoven.");
            try (Reranker ra = a.create(RerankerProvider.class, "maxsim", Map.of("workers", "1"));
                 Reranker rb = b.create(RerankerProvider.class, "maxsim", Map.of("workers", "1"))) {
                double[] scoresA = ra.score("boiling point of water", texts);
                double[] scoresB = rb.score("boiling point of water", texts);
                assertEquals(2, scoresA.length);
                assertArrayEquals(scoresA, scoresB, "two independent runtimes, same model, same scores");
            }
        }
    }
}
