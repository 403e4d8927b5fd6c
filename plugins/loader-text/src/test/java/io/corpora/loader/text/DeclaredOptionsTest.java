package io.corpora.loader.text;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    /** Text and Markdown declare the same limits ({@link TextLoaderProvider#DEFAULT_MAX_BYTES} and its timeout). */
    private static final String TEXT_LOADER_OPTIONS = """
            name     | type     | default  | minimum | maximum | aliases
            maxBytes | LONG     | 10485760 | 1       |         |
            timeout  | DURATION | 10s      | 1ms     |         |
            """;

    @Test
    void textOptions() {
        RecordedOptions.assertRecordedDefaults(new TextLoaderProvider(), TEXT_LOADER_OPTIONS);
    }

    @Test
    void markdownOptions() {
        RecordedOptions.assertRecordedDefaults(new MarkdownLoaderProvider(), TEXT_LOADER_OPTIONS);
    }
}
