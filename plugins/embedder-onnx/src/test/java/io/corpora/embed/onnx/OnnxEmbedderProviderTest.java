package io.corpora.embed.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.onnx.BundledModel;
import io.corpora.spi.VectorMath;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.EmbedderProvider;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OnnxEmbedderProviderTest {

    @TempDir
    static Path dir;

    private static Path modelFile;
    private static Path tokenizerFile;

    @BeforeAll
    static void writeTheBundledModelAsOperatorFiles() throws Exception {
        modelFile = dir.resolve("bge-copy.onnx");
        tokenizerFile = dir.resolve("tokenizer.json");
        try (InputStream in = BundledModel.BGE_SMALL_EN_V15_Q.modelBytes().openStream()) {
            Files.copy(in, modelFile);
        }
        try (InputStream in = BundledModel.BGE_SMALL_EN_V15_Q.tokenizerBytes().openStream()) {
            Files.copy(in, tokenizerFile);
        }
    }

    private static final OnnxEmbedderProvider PROVIDER = new OnnxEmbedderProvider();

    private static Embedder create(Map<String, String> raw) {
        PluginConfig config = PluginConfig.validate(PROVIDER.name(), PROVIDER.configOptions(), raw);
        return PROVIDER.create(PluginContext.of(dir, "embedder-onnx-test"), config);
    }

    @Test
    void isDiscoveredAsProviderOnnx() {
        List<String> names = ServiceLoader.load(EmbedderProvider.class).stream()
                .map(p -> p.get().name()).collect(Collectors.toList());
        assertEquals(List.of("onnx"), names);
    }

    @Test
    void declaresEveryOptionItReadsWithDefaults() {
        Map<String, ConfigOption> options = PROVIDER.configOptions().stream()
                .collect(Collectors.toMap(ConfigOption::name, o -> o));
        assertEquals("bge-small-en-v1.5-q", options.get("model").defaultValue());
        assertEquals("2", options.get("workers").defaultValue());
        assertEquals("1", options.get("intraOpThreads").defaultValue());
        assertEquals("error", options.get("truncation").defaultValue());
        assertTrue(options.keySet().containsAll(List.of("queryInstruction", "modelPath", "tokenizerPath", "pooling", "maxSequenceTokens")));
    }

    @Test
    void refusesAnUnknownModelAndIncompleteCustomConfiguration() {
        assertThrows(InvalidConfigException.class,
                () -> PluginConfig.validate("onnx", PROVIDER.configOptions(), Map.of("model", "gpt-9")));
        InvalidConfigException custom = assertThrows(InvalidConfigException.class, () -> create(Map.of("model", "custom")));
        assertTrue(custom.getMessage().contains("needs both 'modelPath' and 'tokenizerPath'"), custom.getMessage());
        InvalidConfigException stray = assertThrows(InvalidConfigException.class, () -> create(Map.of("modelPath", modelFile.toString())));
        assertTrue(stray.getMessage().contains("only to model=custom"), stray.getMessage());
        InvalidConfigException workers = assertThrows(InvalidConfigException.class, () -> create(Map.of("workers", "0")));
        assertTrue(workers.getMessage().contains("option 'workers': must be at least 1, got 0"), workers.getMessage());
        assertEquals(custom.problems(), assertThrows(InvalidConfigException.class, () -> PROVIDER.validate(PluginConfig.validate("onnx",
                PROVIDER.configOptions(), Map.of("model", "custom")))).problems(), "refused where a definition enters, nothing loaded");
    }

    @Test
    void aMissingModelPathNamesThePath() {
        Path missing = dir.resolve("no-such-model.onnx");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> create(Map.of(
                "model", "custom", "modelPath", missing.toString(), "tokenizerPath", tokenizerFile.toString())));
        assertTrue(e.getMessage().contains("no-such-model.onnx") && e.getMessage().contains("does not exist"), e.getMessage());
        PROVIDER.validate(PluginConfig.validate("onnx", PROVIDER.configOptions(), Map.of("model", "custom", "modelPath", missing.toString(),
                "tokenizerPath", tokenizerFile.toString()))); // the file is the server's, found by create: validate passes it
    }

    @Test
    void anOperatorModelWithDifferentBytesHasADifferentFingerprint() throws Exception {
        // Append a protobuf field (ModelProto.doc_string, field 6) to the bundled model: same weights, different bytes.
        Path altered = dir.resolve("bge-altered.onnx");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        bytes.write(Files.readAllBytes(modelFile));
        byte[] doc = "rebuilt by an operator".getBytes(StandardCharsets.UTF_8);
        bytes.write(0x32);
        bytes.write(doc.length);
        bytes.write(doc);
        Files.write(altered, bytes.toByteArray());

        try (Embedder same = create(Map.of("model", "custom", "modelPath", modelFile.toString(), "tokenizerPath", tokenizerFile.toString(),
                     "queryInstruction", "Represent this sentence for searching relevant passages: ", "workers", "1"));
             Embedder other = create(Map.of("model", "custom", "modelPath", altered.toString(), "tokenizerPath", tokenizerFile.toString(),
                     "workers", "1"))) {
            assertEquals(BundledModel.BGE_SMALL_EN_V15_Q.modelBytes().sha256(), same.fingerprint().revision());
            assertNotEquals(same.fingerprint().revision(), other.fingerprint().revision());
            assertNotEquals(same.fingerprint().id(), other.fingerprint().id());
            assertEquals("bge-copy/cls", same.fingerprint().model());
            String text = "Same weights give the same vector.";
            assertArrayEquals(same.embedDocuments(List.of(text)).get(0), other.embedDocuments(List.of(text)).get(0));
        }
    }

    @Test
    void meanPoolingIsAvailableForCustomModels() {
        try (Embedder cls = create(Map.of("model", "custom", "modelPath", modelFile.toString(), "tokenizerPath", tokenizerFile.toString(),
                     "workers", "1"));
             Embedder mean = create(Map.of("model", "custom", "modelPath", modelFile.toString(), "tokenizerPath", tokenizerFile.toString(),
                     "pooling", "mean", "maxSequenceTokens", "128", "workers", "1"))) {
            assertEquals("bge-copy/mean", mean.fingerprint().model());
            assertNotEquals(cls.fingerprint().id(), mean.fingerprint().id());
            assertEquals(128, mean.maxInputTokens());
            float[] a = mean.embedDocuments(List.of("mean pooling of token states")).get(0);
            float[] b = cls.embedDocuments(List.of("mean pooling of token states")).get(0);
            assertEquals(1.0, Math.sqrt(VectorMath.dotProduct(a, a)), 1e-4);
            assertTrue(VectorMath.cosineSimilarity(a, b) < 0.9999, "a different pooling gives a different vector");
        }
    }
}
