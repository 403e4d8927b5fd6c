package io.corpora.generate.openai;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void openaiOptions() {
        RecordedOptions.assertRecordedDefaults(new OpenAiGeneratorProvider(), """
                name             | type     | default    | minimum | maximum    | aliases
                baseUrl          | STRING   |            |         |            |
                apiType          | ENUM     | openai     |         |            |
                model            | STRING   |            |         |            |
                deployment       | STRING   |            |         |            |
                apiVersion       | STRING   |            |         |            |
                apiKey           | STRING   | (secret)   |         |            |
                organization     | STRING   |            |         |            |
                headers          | LIST     |            |         |            |
                connectTimeout   | DURATION | 10s        | 1ms     | 5m         |
                timeout          | DURATION | 60s        | 1ms     | 30m        |
                maxRetries       | INT      | 2          | 0       | 10         |
                retryDelay       | DURATION | 500ms      | 0ms     | 1m         |
                maxRetryDelay    | DURATION | 20s        | 1ms     | 10m        |
                maxTokens        | INT      |            | 1       | 1000000    |
                maxTokensField   | ENUM     | max_tokens |         |            |
                temperature      | DOUBLE   |            | 0       | 2          |
                streamUsage      | BOOLEAN  | true       |         |            |
                maxResponseBytes | LONG     | 8388608    | 1024    | 1073741824 |
                """);
    }
}
