package io.corpora.loader.records;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    /** The options every records loader declares ({@link RecordLoaderOptions}), first in each table. */
    private static final String RECORD_LOADER_OPTIONS = """
            name           | type     | default  | minimum | maximum | aliases
            maxBytes       | LONG     | 52428800 | 1       |         |
            timeout        | DURATION | 60s      | 1ms     |         |
            maxRecords     | INT      | 100000   | 1       |         |
            maxRecordChars | INT      | 100000   | 1       |         |
            metadataFields | LIST     |          |         |         |
            """;

    @Test
    void jsonOptions() {
        RecordedOptions.assertRecordedDefaults(new JsonLoaderProvider(), RECORD_LOADER_OPTIONS + """
                recordsPath    | STRING   |          |         |         |
                """);
    }

    @Test
    void jsonlOptions() {
        RecordedOptions.assertRecordedDefaults(new JsonLinesLoaderProvider(), RECORD_LOADER_OPTIONS);
    }

    @Test
    void csvOptions() {
        RecordedOptions.assertRecordedDefaults(new CsvLoaderProvider(), RECORD_LOADER_OPTIONS + """
                separator      | ENUM     | comma    |         |         |
                """);
    }
}
