package io.corpora.rerank.onnx;

import io.corpora.onnx.InferenceOptions;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.PluginConfig;
import java.nio.file.Path;
import java.util.List;

/** The cross-encoder's options: declarations and parsed values. */
record CrossEncoderSettings(Path modelPath, Path tokenizerPath, String outputName, ScoreActivation activation, int labelIndex,
                            int batchSize, int maxSequenceTokens, int workers, int intraOpThreads) {

    static List<ConfigOption> options() {
        return java.util.stream.Stream.concat(java.util.stream.Stream.of(
                ConfigOption.builder("modelPath", ConfigType.PATH).required()
                        .description("The cross-encoder ONNX file (e.g. ms-marco-MiniLM-L-6-v2, bge-reranker-base exported to ONNX)")
                        .build(),
                ConfigOption.builder("tokenizerPath", ConfigType.PATH)
                        .description("Its Hugging Face tokenizer.json (WordPiece); default: tokenizer.json beside the model file")
                        .build(),
                ConfigOption.builder("outputName", ConfigType.STRING)
                        .description("The graph output holding the logits; default: the first output")
                        .build(),
                ConfigOption.builder("score", ConfigType.ENUM).allowedValues("sigmoid", "logit").defaultValue("sigmoid")
                        .description("'sigmoid' maps the logit to (0, 1); 'logit' returns it raw. Same order either way")
                        .build(),
                ConfigOption.builder("labelIndex", ConfigType.INT).defaultValue(0).minimum(0)
                        .description("Which output column is the relevance logit (0 for single-logit heads)")
                        .build(),
                ConfigOption.builder("batchSize", ConfigType.INT).defaultValue(8).minimum(1).maximum(256)
                        .description("Pairs per model run; pairs are grouped by length so padding stays small")
                        .build(),
                ConfigOption.builder("maxSequenceTokens", ConfigType.INT).defaultValue(512).minimum(8)
                        .description("The model's sequence limit including [CLS] and two [SEP]; longer passages are cut and logged")
                        .build()),
                InferenceOptions.declarations().stream()).toList();
    }

    static CrossEncoderSettings from(PluginConfig config) {
        Path model = config.getPath("modelPath").orElseThrow();
        Path tokenizer = config.getPath("tokenizerPath").orElseGet(() -> model.toAbsolutePath().resolveSibling("tokenizer.json"));
        int labelIndex = config.getInt("labelIndex");
        int batchSize = config.getInt("batchSize");
        int maxSequence = config.getInt("maxSequenceTokens");
        InferenceOptions inference = InferenceOptions.read(config);
        int workers = inference.workers();
        int intraOp = inference.intraOpThreads();
        return new CrossEncoderSettings(model, tokenizer, config.getString("outputName").orElse(null),
                ScoreActivation.parse(config.requireString("score")), labelIndex, batchSize, maxSequence, workers, intraOp);
    }
}
