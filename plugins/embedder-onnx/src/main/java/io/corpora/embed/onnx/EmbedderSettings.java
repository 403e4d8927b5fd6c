package io.corpora.embed.onnx;

import io.corpora.onnx.BiEncoderSpec;
import io.corpora.onnx.InferenceOptions;
import io.corpora.onnx.BundledModel;
import io.corpora.onnx.ModelBytes;
import io.corpora.onnx.Pooling;
import io.corpora.onnx.Truncation;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/** The embedder's options: their declarations and their parsed, cross-checked values. */
record EmbedderSettings(BiEncoderSpec spec, ModelSource source, int workers, int intraOpThreads, Truncation truncation) {

    static final String MODEL = "model";
    static final String QUERY_INSTRUCTION = "queryInstruction";
    static final String TRUNCATION = "truncation";
    static final String MODEL_PATH = "modelPath";
    static final String TOKENIZER_PATH = "tokenizerPath";
    static final String POOLING = "pooling";
    static final String MAX_SEQUENCE_TOKENS = "maxSequenceTokens";

    static final String CUSTOM = "custom";
    static final String NO_INSTRUCTION = "none";

    /** Where the model and tokenizer bytes come from. */
    record ModelSource(Optional<BundledModel> bundled, Path modelPath, Path tokenizerPath) {
        ModelBytes model() {
            return bundled.map(BundledModel::modelBytes).orElseGet(() -> ModelBytes.fromPath(modelPath, "embedder model file (modelPath)"));
        }

        ModelBytes tokenizer() {
            return bundled.map(BundledModel::tokenizerBytes)
                    .orElseGet(() -> ModelBytes.fromPath(tokenizerPath, "embedder tokenizer file (tokenizerPath)"));
        }
    }

    static List<ConfigOption> options() {
        List<ConfigOption> options = new java.util.ArrayList<>(List.of(
                ConfigOption.builder(MODEL, ConfigType.ENUM)
                        .allowedValues(BundledModel.BGE_SMALL_EN_V15_Q.modelName(), CUSTOM)
                        .defaultValue(BundledModel.BGE_SMALL_EN_V15_Q.modelName())
                        .description("Bundled model, or 'custom' for an operator-supplied ONNX model (modelPath + tokenizerPath)")
                        .build(),
                ConfigOption.builder(QUERY_INSTRUCTION, ConfigType.STRING)
                        .description("Prefix for embedQuery only; absent or 'none' = no prefix (bge's model card offers 'Represent"
                                + " this sentence for searching relevant passages: ', which lost to none on the train splits measured)")
                        .build(),
                ConfigOption.builder(TRUNCATION, ConfigType.ENUM).allowedValues("error", "warn").defaultValue("error")
                        .description("Input over the model's token limit: 'error' refuses it, 'warn' keeps the first tokens and logs a warning")
                        .build(),
                ConfigOption.builder(MODEL_PATH, ConfigType.PATH)
                        .description("model=custom: a BERT-style ONNX sentence encoder (inputs input_ids, attention_mask[, token_type_ids];"
                                + " first output [batch, tokens, hidden])")
                        .build(),
                ConfigOption.builder(TOKENIZER_PATH, ConfigType.PATH)
                        .description("model=custom: its Hugging Face tokenizer.json (WordPiece)")
                        .build(),
                ConfigOption.builder(POOLING, ConfigType.ENUM).allowedValues("cls", "mean")
                        .description("model=custom: 'cls' (bge) or 'mean' (MiniLM / sentence-transformers); default cls")
                        .build(),
                ConfigOption.builder(MAX_SEQUENCE_TOKENS, ConfigType.INT).minimum(3)
                        .description("model=custom: the model's sequence limit including [CLS]/[SEP]; default 512")
                        .build()));
        options.addAll(1, InferenceOptions.declarations()); // right after the model, as before
        return List.copyOf(options);
    }

    static EmbedderSettings from(PluginConfig config) {
        String model = config.requireString(MODEL);
        Truncation truncation = Truncation.parse(config.requireString(TRUNCATION));
        Optional<Path> modelPath = config.getPath(MODEL_PATH);
        Optional<Path> tokenizerPath = config.getPath(TOKENIZER_PATH);
        List<String> problems = new java.util.ArrayList<>();
        InferenceOptions inference = InferenceOptions.read(config);
        int workers = inference.workers();
        int intraOpThreads = inference.intraOpThreads();
        BiEncoderSpec spec;
        ModelSource source;
        if (CUSTOM.equals(model)) {
            if (modelPath.isEmpty() || tokenizerPath.isEmpty()) {
                problems.add("model=custom needs both 'modelPath' and 'tokenizerPath'");
            }
            Pooling pooling = config.getString(POOLING).map(p -> Pooling.valueOf(p.toUpperCase(Locale.ROOT))).orElse(Pooling.CLS);
            int maxSequence = config.has(MAX_SEQUENCE_TOKENS) ? config.getInt(MAX_SEQUENCE_TOKENS) : 512;
            String name = modelPath.map(p -> baseName(p) + "/" + pooling.name().toLowerCase(Locale.ROOT)).orElse(CUSTOM);
            spec = new BiEncoderSpec(name, maxSequence, pooling, "");
            source = new ModelSource(Optional.empty(), modelPath.orElse(null), tokenizerPath.orElse(null));
        } else {
            for (String customOnly : List.of(MODEL_PATH, TOKENIZER_PATH, POOLING, MAX_SEQUENCE_TOKENS)) {
                if (config.has(customOnly)) {
                    problems.add("option '" + customOnly + "' applies only to model=custom, not to the bundled " + model);
                }
            }
            BundledModel bundled = BundledModel.byName(model);
            spec = bundled.spec();
            source = new ModelSource(Optional.of(bundled), null, null);
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(config.provider(), problems);
        }
        Optional<String> instruction = config.getString(QUERY_INSTRUCTION);
        if (instruction.isPresent()) {
            spec = spec.withQueryInstruction(NO_INSTRUCTION.equals(instruction.get()) ? "" : instruction.get());
        }
        return new EmbedderSettings(spec, source, workers, intraOpThreads, truncation);
    }

    private static String baseName(Path path) {
        String file = path.getFileName().toString();
        return file.endsWith(".onnx") ? file.substring(0, file.length() - ".onnx".length()) : file;
    }
}
