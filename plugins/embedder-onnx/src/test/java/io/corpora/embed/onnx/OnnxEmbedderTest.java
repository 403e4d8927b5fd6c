package io.corpora.embed.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.onnx.BundledModel;
import io.corpora.onnx.InputTooLongException;
import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.VectorMath;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import io.corpora.testkit.CapturedLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.logging.Level;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real ONNX inference with the bundled bge-small-en-v1.5 (int8). */
class OnnxEmbedderTest {

    @TempDir
    static Path dataDir;

    private static Embedder embedder;

    @BeforeAll
    static void loadDefaultEmbedder() {
        embedder = create(Map.of());
    }

    @AfterAll
    static void close() {
        embedder.close();
    }

    static Embedder create(Map<String, String> raw) {
        OnnxEmbedderProvider provider = new OnnxEmbedderProvider();
        PluginConfig config = PluginConfig.validate(provider.name(), provider.configOptions(), raw);
        return provider.create(PluginContext.of(dataDir, "embedder-onnx-test"), config);
    }

    @Test
    void fingerprintNamesProviderModelWidthAndModelBytesHash() {
        EmbedderFingerprint fingerprint = embedder.fingerprint();
        assertEquals("onnx", fingerprint.provider());
        assertEquals("bge-small-en-v1.5-q", fingerprint.model());
        assertEquals(384, fingerprint.dimension());
        assertEquals(384, embedder.dimension());
        assertTrue(fingerprint.normalized());
        assertEquals(BundledModel.BGE_SMALL_EN_V15_Q.modelBytes().sha256(), fingerprint.revision());
    }

    @Test
    void vectorsHave384UnitLengthFiniteComponents() {
        List<float[]> vectors = embedder.embedDocuments(List.of("Aspirin lowers the risk of heart attack.", "", "a"));
        assertEquals(3, vectors.size());
        for (float[] v : vectors) {
            assertEquals(384, v.length);
            double norm = Math.sqrt(VectorMath.dotProduct(v, v));
            assertEquals(1.0, norm, 1e-4);
            for (float x : v) {
                assertTrue(Float.isFinite(x));
            }
        }
    }

    @Test
    void theSameTextAlwaysGivesTheSameVectorWhateverItIsBatchedWith() {
        String text = "Vitamin D deficiency is associated with increased fracture risk in older adults.";
        float[] alone = embedder.embedDocuments(List.of(text)).get(0);
        List<float[]> mixed = embedder.embedDocuments(List.of("short", text,
                "A much longer neighbouring passage about something else entirely, which would have forced padding "
                        + "if the embedder batched texts of different lengths into one model run."));
        assertArrayEquals(alone, mixed.get(1), "bit-identical regardless of batch neighbours");
        assertArrayEquals(alone, embedder.embedDocuments(List.of(text)).get(0), "bit-identical on repeat");
    }

    @Test
    void paraphrasesScoreHigherThanUnrelatedTexts() {
        List<float[]> v = embedder.embedDocuments(List.of(
                "The cat is sleeping on the sofa.",
                "A kitten naps on the couch.",
                "Quarterly tax filings are due at the end of the month.",
                "Smoking causes lung cancer.",
                "Tobacco use is a major risk factor for pulmonary carcinoma.",
                "The train to Paris leaves at noon."));
        double catParaphrase = VectorMath.cosineSimilarity(v.get(0), v.get(1));
        double catUnrelated = VectorMath.cosineSimilarity(v.get(0), v.get(2));
        double smokeParaphrase = VectorMath.cosineSimilarity(v.get(3), v.get(4));
        double smokeUnrelated = VectorMath.cosineSimilarity(v.get(3), v.get(5));
        assertTrue(catParaphrase > catUnrelated + 0.1, catParaphrase + " vs " + catUnrelated);
        assertTrue(smokeParaphrase > smokeUnrelated + 0.1, smokeParaphrase + " vs " + smokeUnrelated);
    }

    @Test
    void aConfiguredInstructionChangesTheQueryVectorAndQueriesRankTheirAnswerFirst() {
        try (Embedder instructed = create(Map.of("queryInstruction", io.corpora.onnx.BundledModel.BGE_QUERY_INSTRUCTION, "workers", "1"))) {
            float[] query = instructed.embedQuery("what does smoking cause?");
            float[] sameTextAsDocument = instructed.embedDocuments(List.of("what does smoking cause?")).get(0);
            assertFalse(java.util.Arrays.equals(query, sameTextAsDocument), "the query instruction changes the query vector");
            List<float[]> docs = instructed.embedDocuments(List.of(
                    "Cigarette smoking causes lung cancer and heart disease.",
                    "The Eiffel Tower is in Paris.",
                    "Photosynthesis converts light into chemical energy."));
            double answer = VectorMath.cosineSimilarity(query, docs.get(0));
            assertTrue(answer > VectorMath.cosineSimilarity(query, docs.get(1)));
            assertTrue(answer > VectorMath.cosineSimilarity(query, docs.get(2)));
            assertArrayEquals(query, instructed.embedQueries(List.of("what does smoking cause?")).get(0));
            assertEquals(embedder.fingerprint(), instructed.fingerprint(), "documents are unchanged, so the fingerprint is too");
        }
    }

    @Test
    void byDefaultAQueryIsEmbeddedAsItsTextAndRanksItsAnswerFirst() {
        String text = "what does smoking cause?";
        float[] query = embedder.embedQuery(text);
        assertArrayEquals(embedder.embedDocuments(List.of(text)).get(0), query, "no instruction by default");
        List<float[]> docs = embedder.embedDocuments(List.of(
                "Cigarette smoking causes lung cancer and heart disease.",
                "The Eiffel Tower is in Paris."));
        assertTrue(VectorMath.cosineSimilarity(query, docs.get(0)) > VectorMath.cosineSimilarity(query, docs.get(1)));
        try (Embedder plain = create(Map.of("queryInstruction", "none", "workers", "1"))) {
            assertArrayEquals(query, plain.embedQuery(text), "'none' is the default");
        }
    }

    @Test
    void exposesTheTokenLimitAndTheModelsTokenCounter() {
        assertEquals(512, embedder.maxInputTokens(), "512 positions, [CLS] and [SEP] included");
        TokenCounter counter = embedder.tokenCounter().orElseThrow();
        assertEquals(4, counter.countTokens("Hello, World!"));
        assertEquals(3, counter.countTokens("p53 mutations"), "p ##53 mutations");
        assertEquals(0, counter.countTokens(""));
    }

    @Test
    void inputAtTheLimitIsEmbeddedAndOneTokenMoreIsRefused() {
        TokenCounter counter = embedder.tokenCounter().orElseThrow();
        String atLimit = "word ".repeat(510).trim();
        assertEquals(510, counter.countTokens(atLimit));
        assertEquals(384, embedder.embedDocuments(List.of(atLimit)).get(0).length);

        String overLimit = atLimit + " word";
        InputTooLongException e = assertThrows(InputTooLongException.class, () -> embedder.embedDocuments(List.of("ok", overLimit)));
        assertEquals(511, e.tokens());
        assertEquals(510, e.limit());
        assertTrue(e.getMessage().contains("511 tokens") && e.getMessage().contains("bge-small-en-v1.5-q"), e.getMessage());
    }

    @Test
    void warnModeTruncatesAndLogs() {
        try (CapturedLog log = CapturedLog.of("embedder-onnx-test");
             Embedder lenient = create(Map.of("truncation", "warn", "workers", "1"))) {
            String atLimit = "word ".repeat(510).trim();
            float[] truncated = lenient.embedDocuments(List.of(atLimit + " plus many more words beyond the limit")).get(0);
            assertArrayEquals(lenient.embedDocuments(List.of(atLimit)).get(0), truncated, "the first 510 tokens are kept");
            assertTrue(log.has(Level.WARNING, "truncating input of 517 tokens"), "a warning names the counts");
        }
    }

    @Test
    void concurrentCallersGetTheSameVectorsAsASingleCaller() throws Exception {
        List<String> texts = IntStream.range(0, 24).mapToObj(i -> "Sentence number " + i + " about topic " + (i % 5) + ".").toList();
        List<float[]> expected = texts.stream().map(t -> embedder.embedDocuments(List.of(t)).get(0)).toList();
        ExecutorService callers = Executors.newFixedThreadPool(6);
        try {
            List<Future<List<float[]>>> futures = new ArrayList<>();
            for (int c = 0; c < 6; c++) {
                int offset = c;
                Callable<List<float[]>> call = () -> {
                    List<String> rotated = new ArrayList<>(texts.subList(offset, texts.size()));
                    rotated.addAll(texts.subList(0, offset));
                    List<float[]> docs = embedder.embedDocuments(rotated);
                    embedder.embedQuery("interleaved query " + offset);
                    List<float[]> back = new ArrayList<>(docs.subList(docs.size() - offset, docs.size()));
                    back.addAll(docs.subList(0, docs.size() - offset));
                    return back;
                };
                futures.add(callers.submit(call));
            }
            for (Future<List<float[]>> future : futures) {
                List<float[]> got = future.get(2, TimeUnit.MINUTES);
                for (int i = 0; i < texts.size(); i++) {
                    assertArrayEquals(expected.get(i), got.get(i), "text " + i);
                }
            }
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void nullTextsAreRefused() {
        java.util.List<String> withNull = new ArrayList<>();
        withNull.add(null);
        assertThrows(NullPointerException.class, () -> embedder.embedDocuments(withNull));
        assertThrows(NullPointerException.class, () -> embedder.embedQuery(null));
        assertEquals(0, embedder.embedDocuments(List.of()).size());
    }
}
