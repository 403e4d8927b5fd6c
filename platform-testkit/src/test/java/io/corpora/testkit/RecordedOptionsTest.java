package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import java.util.List;
import org.junit.jupiter.api.Test;

class RecordedOptionsTest {

    private static final List<ConfigOption> OPTIONS = List.of(
            ConfigOption.builder("hnsw.m", ConfigType.INT).defaultValue(16).minimum(2).maximum(512).aliases("hnswM").build(),
            ConfigOption.builder("apiKey", ConfigType.STRING).secret().build(),
            ConfigOption.builder("url", ConfigType.STRING).required().build());

    @Test
    void aMatchingTablePassesWhateverItsPadding() {
        RecordedOptions.assertRecordedDefaults("p", OPTIONS, """
                name|type|default|minimum|maximum|aliases
                hnsw.m | INT | 16 | 2 | 512 | hnswM
                apiKey   |   STRING | (secret) |  |  |
                url | STRING | | | |
                """);
    }

    @Test
    void aChangedDefaultFailsShowingTheActualTable() {
        AssertionError e = assertThrows(AssertionError.class, () -> RecordedOptions.assertRecordedDefaults("p", OPTIONS, """
                hnsw.m | INT | 32 | 2 | 512 | hnswM
                apiKey | STRING | (secret) | | |
                url    | STRING | | | |
                """));
        assertTrue(e.getMessage().contains("hnsw.m | INT    | 16"), e.getMessage());
    }

    @Test
    void aDefaultOutsideItsOwnBoundsFails() {
        List<ConfigOption> wrong = List.of(ConfigOption.builder("n", ConfigType.INT).defaultValue(0).minimum(1).build());
        AssertionError e = assertThrows(AssertionError.class, () -> RecordedOptions.assertRecordedDefaults("p", wrong, """
                n | INT | 0 | 1 | |
                """));
        assertTrue(e.getMessage().contains("do not pass their own declaration"), e.getMessage());
    }
}
