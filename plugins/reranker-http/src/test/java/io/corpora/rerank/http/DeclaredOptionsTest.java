package io.corpora.rerank.http;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void httpOptions() {
        RecordedOptions.assertRecordedDefaults(new HttpRerankerProvider(), """
                name             | type     | default  | minimum | maximum | aliases
                format           | ENUM     |          |         |         |
                endpoint         | STRING   |          |         |         |
                model            | STRING   |          |         |         |
                apiKey           | STRING   | (secret) |         |         |
                timeout          | DURATION | 10s      | 1ms     |         |
                maxResponseBytes | LONG     | 1048576  | 1       |         |
                batchSize        | INT      | 32       | 1       |         |
                """);
    }
}
