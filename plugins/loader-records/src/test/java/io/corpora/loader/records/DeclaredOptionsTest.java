package io.corpora.loader.records;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void jsonOptions() {
        RecordedOptions.assertRecordedDefaults(new JsonLoaderProvider(), """
                name           | type     | default  | minimum | maximum | aliases
                maxBytes       | LONG     | 52428800 | 1       |         |
                timeout        | DURATION | 60s      | 1ms     |         |
                maxRecords     | INT      | 100000   | 1       |         |
                maxRecordChars | INT      | 100000   | 1       |         |
                metadataFields | LIST     |          |         |         |
                recordsPath    | STRING   |          |         |         |
                """);
    }

    @Test
    void jsonlOptions() {
        RecordedOptions.assertRecordedDefaults(new JsonLinesLoaderProvider(), """
                name           | type     | default  | minimum | maximum | aliases
                maxBytes       | LONG     | 52428800 | 1       |         |
                timeout        | DURATION | 60s      | 1ms     |         |
                maxRecords     | INT      | 100000   | 1       |         |
                maxRecordChars | INT      | 100000   | 1       |         |
                metadataFields | LIST     |          |         |         |
                """);
    }

    @Test
    void csvOptions() {
        RecordedOptions.assertRecordedDefaults(new CsvLoaderProvider(), """
                name           | type     | default  | minimum | maximum | aliases
                maxBytes       | LONG     | 52428800 | 1       |         |
                timeout        | DURATION | 60s      | 1ms     |         |
                maxRecords     | INT      | 100000   | 1       |         |
                maxRecordChars | INT      | 100000   | 1       |         |
                metadataFields | LIST     |          |         |         |
                separator      | ENUM     | comma    |         |         |
                """);
    }
}
