package io.corpora.loader.common;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.loader.DocumentLoadException;
import io.corpora.spi.loader.LoadRequest;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LoaderLimitsTest {

    @Test
    void defaultsAreDeclaredAndParsed() {
        PluginConfig config = PluginConfig.validate("t", LoaderLimits.options(1000, "5s"), Map.of());
        assertEquals(new LoaderLimits(1000, Duration.ofSeconds(5)), LoaderLimits.from(config));
    }

    @Test
    void nonPositiveValuesAreRefusedNamingTheOption() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class,
                () -> PluginConfig.validate("t", LoaderLimits.options(1000, "5s"), Map.of("maxBytes", "0", "timeout", "0s")));
        assertEquals(2, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("'maxBytes'"), e.getMessage());
    }

    @Test
    void oversizeDocumentFailsWithSizesAndOptionName() {
        LoaderLimits limits = new LoaderLimits(2048, Duration.ofSeconds(1));
        LoadRequest request = new LoadRequest(new byte[3 * 1024 * 1024], "text/plain", null, "big.txt");
        DocumentLoadException e = assertThrows(DocumentLoadException.class, () -> limits.requireWithinSize(request));
        assertEquals(DocumentLoadException.Reason.TOO_LARGE, e.reason());
        assertEquals("'big.txt' is 3.0 MB; this loader accepts at most 2.0 KB (option 'maxBytes'). "
                + "Split the document into smaller files.", e.getMessage());
    }

    @Test
    void documentAtTheLimitIsAccepted() {
        LoaderLimits limits = new LoaderLimits(10, Duration.ofSeconds(1));
        assertDoesNotThrow(() -> limits.requireWithinSize(new LoadRequest(new byte[10], "text/plain", null, "ok.txt")));
    }
}
