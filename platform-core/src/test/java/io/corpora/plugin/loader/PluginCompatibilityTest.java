package io.corpora.plugin.loader;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import io.corpora.spi.rerank.RerankerProvider;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The compatibility policy's proof (README, "Compatibility policy for plugin authors"): a plugin jar compiled against
 * SPI 1.0 — built from this repository's history by scripts/build-spi-1.0-fixture.sh, not against today's API — loads,
 * declares its options and runs on the current SPI.
 */
class PluginCompatibilityTest {

    @Test
    void aPluginBuiltAgainstSpi10LoadsAndRuns(@TempDir Path plugins) throws IOException {
        try (InputStream jar = getClass().getResourceAsStream("/plugins-spi-1.0/spi10-reranker.jar")) {
            Files.copy(jar, plugins.resolve("spi10-reranker.jar"));
        }
        PluginRegistry registry = PluginManager.load(plugins);

        assertEquals(List.of(), registry.problems());
        assertEquals("1.0", registry.plugins().get(0).spiVersion());
        assertEquals(List.of("bonus"), registry.describe(PluginKind.RERANKER, "spi10-length").orElseThrow()
                .options().stream().map(o -> o.name()).toList());
        Reranker reranker = registry.create(RerankerProvider.class, "spi10-length", PluginContext.of(plugins, "test"), Map.of("bonus", "1"));
        assertArrayEquals(new double[] {4, 6}, reranker.score("q", List.of("abc", "abcde")));
    }
}
