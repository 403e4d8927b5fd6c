package io.corpora.spi.config;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A renamed option keeps its old spelling as an alias: same value, same bounds, never both at once. */
class PluginConfigAliasesTest {

    private static final List<ConfigOption> OPTIONS = List.of(
            ConfigOption.builder("hnsw.m", ConfigType.INT).defaultValue(16).minimum(2).maximum(100).aliases("hnswM").build(),
            ConfigOption.builder("hnsw.efConstruction", ConfigType.INT).defaultValue(64).aliases("hnswEfConstruction", "beamWidth").build());

    @Test
    void aValueGivenUnderAnAliasIsFiledUnderTheName() {
        PluginConfig config = PluginConfig.validate("p", OPTIONS, Map.of("hnswM", "24", "beamWidth", "80"));
        assertEquals(24, config.getInt("hnsw.m"));
        assertEquals(80, config.getInt("hnsw.efConstruction"));
        assertEquals(Map.of("hnsw.m", "24", "hnsw.efConstruction", "80"), config.describe());
    }

    @Test
    void theNamesBoundsApplyToItsAliases() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> PluginConfig.validate("p", OPTIONS, Map.of("hnswM", "1")));
        assertTrue(e.getMessage().contains("option 'hnsw.m': must be at least 2, got 1"), e.getMessage());
    }

    @Test
    void bothSpellingsAtOnceAreRefusedRatherThanGuessed() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class,
                () -> PluginConfig.validate("p", OPTIONS, Map.of("hnsw.efConstruction", "40", "beamWidth", "80")));
        assertEquals(1, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("'hnsw.efConstruction' is given twice"), e.getMessage());
    }

    @Test
    void unknownKeysListTheNamesNotTheAliases() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> PluginConfig.validate("p", OPTIONS, Map.of("m", "3")));
        assertTrue(e.getMessage().contains("unknown option 'm' (known: hnsw.m, hnsw.efConstruction)"), e.getMessage());
    }

    @Test
    void aDeclarationWhoseSpellingsCollideIsTheProvidersBug() {
        assertThrows(IllegalArgumentException.class, () -> ConfigOption.builder("a", ConfigType.INT).aliases("a").build());
        assertThrows(IllegalArgumentException.class, () -> ConfigOption.builder("a", ConfigType.INT).aliases("Not valid").build());
        List<ConfigOption> clash = List.of(ConfigOption.builder("a", ConfigType.INT).aliases("b").build(),
                ConfigOption.builder("b", ConfigType.INT).build());
        assertThrows(IllegalStateException.class, () -> PluginConfig.validate("p", clash, Map.of()));
    }

    @Test
    void theOlderConstructorsDeclareNoAliases() {
        ConfigOption v11 = new ConfigOption("x", ConfigType.INT, "1", false, false, "", List.of(), "0", "9");
        ConfigOption v10 = new ConfigOption("x", ConfigType.INT, "1", false, false, "", List.of());
        assertEquals(List.of(), v11.aliases());
        assertEquals(List.of(), v10.aliases());
    }
}
