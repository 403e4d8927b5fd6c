package io.corpora.loader.html;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void htmlOptions() {
        RecordedOptions.assertRecordedDefaults(new HtmlLoaderProvider(), """
                name     | type     | default  | minimum | maximum | aliases
                maxBytes | LONG     | 10485760 | 1       |         |
                timeout  | DURATION | 20s      | 1ms     |         |
                """);
    }
}
