package io.corpora.spi.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PluginConfigBoundsTest {

    private static final List<ConfigOption> OPTIONS = List.of(
            ConfigOption.builder("workers", ConfigType.INT).defaultValue(2).minimum(1).maximum(64).build(),
            ConfigOption.builder("weight", ConfigType.DOUBLE).defaultValue(0.5).minimum(0).maximum(1).build(),
            ConfigOption.builder("timeout", ConfigType.DURATION).defaultValue("10s").minimum("1ms").maximum("5m").build(),
            ConfigOption.builder("maxBytes", ConfigType.LONG).defaultValue(1024).minimum(1).build());

    @Test
    void valuesOnTheBoundsAreAccepted() {
        PluginConfig config = PluginConfig.validate("p", OPTIONS,
                Map.of("workers", "64", "weight", "0", "timeout", "5m", "maxBytes", "1"));
        assertEquals(64, config.getInt("workers"));
        assertEquals(0.0, config.getDouble("weight"));
        assertEquals(Duration.ofMinutes(5), config.getDuration("timeout"));
        assertEquals(1L, config.getLong("maxBytes"));
    }

    @Test
    void everyValueOutsideItsBoundsIsReportedByName() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> PluginConfig.validate("p", OPTIONS,
                Map.of("workers", "0", "weight", "1.5", "timeout", "0ms", "maxBytes", "-3")));
        String message = e.getMessage();
        assertTrue(message.contains("option 'workers': must be at least 1, got 0"), message);
        assertTrue(message.contains("option 'weight': must be at most 1, got 1.5"), message);
        assertTrue(message.contains("option 'timeout': must be at least 1ms"), message);
        assertTrue(message.contains("option 'maxBytes': must be at least 1, got -3"), message);
    }

    @Test
    void aDefaultOutsideTheBoundsIsRefusedToo() {
        List<ConfigOption> options = List.of(ConfigOption.builder("n", ConfigType.INT).defaultValue(0).minimum(1).build());
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> PluginConfig.validate("p", options, Map.of()));
        assertTrue(e.getMessage().contains("must be at least 1, got 0"), e.getMessage());
    }

    @Test
    void boundsAreDeclaredOnlyForOrderedTypesAndInOrder() {
        assertThrows(IllegalArgumentException.class, () -> ConfigOption.builder("s", ConfigType.STRING).minimum(1).build());
        assertThrows(IllegalArgumentException.class, () -> ConfigOption.builder("n", ConfigType.INT).minimum(5).maximum(4).build());
        assertThrows(IllegalStateException.class, () -> ConfigOption.builder("n", ConfigType.INT).minimum("one").build());
    }

    @Test
    void theSpiOnePointZeroConstructorStillBuildsAnUnboundedOption() {
        ConfigOption option = new ConfigOption("n", ConfigType.INT, "3", false, false, "d", List.of());
        assertEquals(null, option.minimum());
        assertEquals(3, PluginConfig.validate("p", List.of(option), Map.of()).getInt("n"));
    }
}
