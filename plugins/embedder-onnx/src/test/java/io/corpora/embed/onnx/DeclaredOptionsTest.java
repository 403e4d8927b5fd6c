package io.corpora.embed.onnx;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void onnxOptions() {
        RecordedOptions.assertRecordedDefaults(new OnnxEmbedderProvider(), """
                name              | type   | default             | minimum | maximum | aliases
                model             | ENUM   | bge-small-en-v1.5-q |         |         |
                workers           | INT    | 2                   | 1       | 64      |
                intraOpThreads    | INT    | 1                   | 1       | 64      |
                queryInstruction  | STRING |                     |         |         |
                truncation        | ENUM   | error               |         |         |
                modelPath         | PATH   |                     |         |         |
                tokenizerPath     | PATH   |                     |         |         |
                pooling           | ENUM   |                     |         |         |
                maxSequenceTokens | INT    |                     | 3       |         |
                """);
    }
}
