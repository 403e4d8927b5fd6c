package io.corpora.loader.pdf;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void pdfOptions() {
        RecordedOptions.assertRecordedDefaults(new PdfLoaderProvider(), """
                name           | type     | default  | minimum | maximum | aliases
                maxBytes       | LONG     | 52428800 | 1       |         |
                timeout        | DURATION | 60s      | 1ms     |         |
                maxPages       | INT      | 2000     | 1       |         |
                maxStreamBytes | LONG     | 67108864 | 1       |         |
                """);
    }
}
