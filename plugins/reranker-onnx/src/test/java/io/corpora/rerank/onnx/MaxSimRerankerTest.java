package io.corpora.rerank.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.rerank.Reranker;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real inference with the bundled bge-small-en-v1.5. */
class MaxSimRerankerTest {

    @TempDir
    static Path dir;

    private static final MaxSimRerankerProvider PROVIDER = new MaxSimRerankerProvider();

    private static Reranker sentencesOnly;
    private static Reranker blended;

    private static final String BURIED_ANSWER = "The committee met on Tuesday to review the annual budget. Parking permits will be "
            + "renewed in March. Water boils at 100 degrees Celsius at sea level. The cafeteria menu changes weekly.";
    private static final String TOPICAL_NOISE = "Water covers about seventy percent of the planet's surface. Oceans hold most of it, "
            + "and rivers carry fresh water to the sea. Many animals live in water.";
    private static final String UNRELATED = "The orchestra performed a Beethoven symphony to a full concert hall on Saturday night.";

    @BeforeAll
    static void load() {
        sentencesOnly = create(Map.of("passageWeight", "0", "fuseWithInputOrder", "false"));
        blended = create(Map.of("fuseWithInputOrder", "false"));
    }

    @AfterAll
    static void close() {
        sentencesOnly.close();
        blended.close();
    }

    static Reranker create(Map<String, String> raw) {
        PluginConfig config = PluginConfig.validate(PROVIDER.name(), PROVIDER.configOptions(), raw);
        return PROVIDER.create(PluginContext.of(dir, "reranker-maxsim-test"), config);
    }

    @Test
    void aPassageScoresByItsBestSentence() {
        String query = "At what temperature does water boil?";
        double[] scores = sentencesOnly.score(query, List.of(TOPICAL_NOISE, BURIED_ANSWER, UNRELATED));
        assertTrue(scores[1] > scores[0], "buried answer " + scores[1] + " beats topical noise " + scores[0]);
        assertTrue(scores[1] > scores[2]);
        double answerSentenceAlone = sentencesOnly.score(query, List.of("Water boils at 100 degrees Celsius at sea level."))[0];
        assertEquals(answerSentenceAlone, scores[1], 1e-9, "with passageWeight 0 the score is the best sentence's");
    }

    @Test
    void blendingMixesTheWholePassageCosine() {
        String query = "At what temperature does water boil?";
        double sentence = sentencesOnly.score(query, List.of(BURIED_ANSWER))[0];
        try (Reranker passageOnly = create(Map.of("passageWeight", "1", "fuseWithInputOrder", "false", "workers", "1"))) {
            double passage = passageOnly.score(query, List.of(BURIED_ANSWER))[0];
            double mixed = blended.score(query, List.of(BURIED_ANSWER))[0];
            assertEquals(0.5 * sentence + 0.5 * passage, mixed, 1e-9);
            assertTrue(sentence > passage, "the best sentence matches better than the diluted passage");
            String oneSentence = "Water boils at 100 degrees Celsius at sea level.";
            assertEquals(sentencesOnly.score(query, List.of(oneSentence))[0], passageOnly.score(query, List.of(oneSentence))[0], 1e-9,
                    "a one-sentence passage is its own best sentence");
        }
    }

    @Test
    void scoresAreAlignedFiniteAndRepeatable() {
        List<String> texts = List.of(UNRELATED, "", "   ", BURIED_ANSWER);
        double[] first = blended.score("boiling point", texts);
        assertEquals(4, first.length);
        for (double s : first) {
            assertTrue(Double.isFinite(s));
        }
        assertEquals(0.0, first[1], "a blank passage scores 0");
        assertArrayEquals(first, blended.score("boiling point", texts), "cached vectors give the same scores");
        assertEquals(0, blended.score("q", List.of()).length);
    }

    @Test
    void fusionWithTheInputOrderIsRrfOfArrivalAndScoreOrder() {
        List<String> texts = List.of(UNRELATED, TOPICAL_NOISE, BURIED_ANSWER);
        try (Reranker fused = create(Map.of("passageWeight", "0", "fuseWithInputOrder", "true", "workers", "1"))) {
            double[] raw = sentencesOnly.score("At what temperature does water boil?", texts);
            assertArrayEquals(InputOrderFusion.fuse(raw), fused.score("At what temperature does water boil?", texts), 1e-12);
        }
    }

    @Test
    void theDefaultIsTheHalfBlendFusedWithTheInputOrder() {
        List<String> texts = List.of(UNRELATED, TOPICAL_NOISE, BURIED_ANSWER);
        try (Reranker defaults = create(Map.of("workers", "1"))) {
            double[] expected = InputOrderFusion.fuse(blended.score("boiling water temperature", texts));
            assertArrayEquals(expected, defaults.score("boiling water temperature", texts), 1e-12);
        }
    }

    @Test
    void refusesAWeightOutsideZeroToOne() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> create(Map.of("passageWeight", "1.5")));
        assertTrue(e.getMessage().contains("passageWeight"), e.getMessage());
    }
}
