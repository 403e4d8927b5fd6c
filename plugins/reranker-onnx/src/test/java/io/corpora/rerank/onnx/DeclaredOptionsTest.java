package io.corpora.rerank.onnx;

import io.corpora.testkit.RecordedOptions;
import org.junit.jupiter.api.Test;

/**
 * The declared options of this plugin's providers, recorded: a changed default, bound or alias is a visible diff here
 * ({@link RecordedOptions}), and every default must pass its own declaration.
 */
class DeclaredOptionsTest {

    @Test
    void onnxCrossEncoderOptions() {
        RecordedOptions.assertRecordedDefaults(new CrossEncoderRerankerProvider(), """
                name              | type   | default | minimum | maximum | aliases
                modelPath         | PATH   |         |         |         |
                tokenizerPath     | PATH   |         |         |         |
                outputName        | STRING |         |         |         |
                score             | ENUM   | sigmoid |         |         |
                labelIndex        | INT    | 0       | 0       |         |
                batchSize         | INT    | 8       | 1       | 256     |
                maxSequenceTokens | INT    | 512     | 8       |         |
                workers           | INT    | 2       | 1       | 64      |
                intraOpThreads    | INT    | 1       | 1       | 64      |
                """);
    }

    @Test
    void maxsimOptions() {
        RecordedOptions.assertRecordedDefaults(new MaxSimRerankerProvider(), """
                name               | type    | default | minimum | maximum | aliases
                passageWeight      | DOUBLE  | 0.5     | 0       | 1       |
                fuseWithInputOrder | BOOLEAN | true    |         |         |
                minSentenceChars   | INT     | 25      | 0       |         |
                cacheEntries       | INT     | 20000   | 0       |         |
                workers            | INT     | 2       | 1       | 64      |
                intraOpThreads     | INT     | 1       | 1       | 64      |
                """);
    }
}
