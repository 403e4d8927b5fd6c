package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.corpora.spi.ClassifiedFailure;
import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.FailureKind;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link Embedder} must show, as a reusable JUnit 5 suite: an embedder plugin's test extends this
 * class and supplies {@link #newEmbedder()}. One instance serves the whole class (models are costly to load); one test
 * opens a second to check that the fingerprint really names the vectors.
 *
 * <p>What it holds an embedder to: the fingerprint's width is every vector's width; components are finite and, when the
 * fingerprint says so, vectors L2-normalised; the same text gives the same vector bit for bit — again, in a batch of
 * any size, from another thread, from another instance of the same fingerprint; an empty batch gives an empty list;
 * input over {@link Embedder#maxInputTokens()} is refused as a {@link FailureKind#CALLER_ERROR}, never truncated
 * silently (unless {@link #embedsOversizedInputWhole()} documents otherwise).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class EmbedderContract {

    /** Tolerance of the unit-length check for normalised fingerprints (embedders compute in float). */
    protected static final double NORM_TOLERANCE = 1e-3;

    private Embedder embedder;

    /** A new, open embedder; every call with the same configuration must give the same fingerprint. */
    protected abstract Embedder newEmbedder() throws Exception;

    /**
     * Whether the embedder documents that it embeds input over its token limit whole (e.g. by pooling windows) instead
     * of refusing it. False by default: the SPI's rule is to refuse.
     */
    protected boolean embedsOversizedInputWhole() {
        return false;
    }

    /** Texts the suite embeds: mixed length, case, punctuation, scripts and a repeated text. */
    protected List<String> sampleTexts() {
        return List.of(
                "The quick brown fox jumps over the lazy dog.",
                "Retrieval-augmented generation grounds answers in passages.",
                "Kurz.",
                "Ünïcödé, 日本語のテキスト, and emoji 🙂 mixed in one line",
                "The quick brown fox jumps over the lazy dog.",
                "A longer passage: " + "vectors are compared by cosine similarity across many dimensions; ".repeat(6));
    }

    /** Text over the token limit of {@code embedder} (only asked when it declares one). */
    protected String oversizedText(Embedder embedder) {
        return "word ".repeat(embedder.maxInputTokens() * 2 + 16).trim();
    }

    @BeforeAll
    final void openEmbedder() throws Exception {
        embedder = newEmbedder();
    }

    @AfterAll
    final void closeEmbedder() {
        if (embedder != null) {
            embedder.close();
        }
    }

    /** The embedder the suite tests. */
    protected final Embedder embedder() {
        return embedder;
    }

    @Test
    void dimensionMatchesTheFingerprint() {
        EmbedderFingerprint fingerprint = embedder.fingerprint();
        assertEquals(fingerprint.dimension(), embedder.dimension(), "dimension() must be the fingerprint's");
        assertEquals(fingerprint, embedder.fingerprint(), "the fingerprint is a value: the same on every call");
        assertTrue(fingerprint.id().contains("." + fingerprint.dimension() + "."), fingerprint.id());
    }

    @Test
    void everyVectorHasTheFingerprintsWidthAndFiniteComponents() {
        List<String> texts = sampleTexts();
        List<float[]> documents = embedder.embedDocuments(texts);
        assertEquals(texts.size(), documents.size(), "one vector per text");
        for (int i = 0; i < texts.size(); i++) {
            requireWellFormed("document " + i, documents.get(i));
            requireWellFormed("query " + i, embedder.embedQuery(texts.get(i)));
        }
    }

    @Test
    void theSameTextGivesTheSameVectorEveryTime() {
        for (String text : sampleTexts()) {
            assertArrayEquals(embedder.embedDocuments(List.of(text)).get(0), embedder.embedDocuments(List.of(text)).get(0),
                    "document vector of '" + text + "'");
            assertArrayEquals(embedder.embedQuery(text), embedder.embedQuery(text), "query vector of '" + text + "'");
        }
        List<String> texts = sampleTexts();
        List<float[]> batch = embedder.embedDocuments(texts);
        assertArrayEquals(batch.get(0), batch.get(4), "a text repeated in one batch gets one vector");
    }

    @Test
    void aBatchEqualsItsTextsEmbeddedOneByOne() {
        List<String> texts = sampleTexts();
        List<float[]> batch = embedder.embedDocuments(texts);
        for (int i = 0; i < texts.size(); i++) {
            assertArrayEquals(embedder.embedDocuments(List.of(texts.get(i))).get(0), batch.get(i),
                    "document " + i + " batched must equal it alone, bit for bit (no batch-dependent padding)");
        }
        List<String> backwards = new ArrayList<>(texts);
        java.util.Collections.reverse(backwards);
        List<float[]> reversed = embedder.embedDocuments(backwards);
        for (int i = 0; i < texts.size(); i++) {
            assertArrayEquals(batch.get(i), reversed.get(texts.size() - 1 - i), "document " + i + " in another batch order");
        }
    }

    @Test
    void queriesBatchedEqualQueriesOneByOne() {
        List<String> queries = sampleTexts();
        List<float[]> batch = embedder.embedQueries(queries);
        assertEquals(queries.size(), batch.size());
        for (int i = 0; i < queries.size(); i++) {
            assertArrayEquals(embedder.embedQuery(queries.get(i)), batch.get(i), "query " + i + " batched must equal it alone");
        }
    }

    @Test
    void anEmptyBatchGivesAnEmptyList() {
        assertEquals(List.of(), embedder.embedDocuments(List.of()));
        assertEquals(List.of(), embedder.embedQueries(List.of()));
    }

    @Test
    void emptyTextIsEmbeddedOrRefusedAsACallerError() {
        try {
            List<float[]> vectors = embedder.embedDocuments(List.of(""));
            assertEquals(1, vectors.size());
            requireWellFormed("empty document", vectors.get(0));
        } catch (RuntimeException e) {
            requireCallerError("embedding an empty text", e);
        }
    }

    @Test
    void inputOverTheTokenLimitIsRefusedAsACallerErrorNotTruncated() {
        int limit = embedder.maxInputTokens();
        assumeTrue(limit > 0, "the embedder declares no token limit");
        String oversized = oversizedText(embedder);
        Optional<TokenCounter> counter = embedder.tokenCounter();
        counter.ifPresent(c -> assertTrue(c.countTokens(oversized) > limit,
                "the oversized text must count more than " + limit + " tokens, counted " + c.countTokens(oversized)));
        List<float[]> vectors;
        try {
            vectors = embedder.embedDocuments(List.of(sampleTexts().get(0), oversized));
        } catch (RuntimeException e) {
            requireCallerError("embedding input over the " + limit + "-token limit", e);
            try {
                embedder.embedQuery(oversized);
                fail("a query over the " + limit + "-token limit was embedded, though the same document text was refused");
            } catch (RuntimeException queryError) {
                requireCallerError("embedding a query over the token limit", queryError);
            }
            return;
        }
        if (!embedsOversizedInputWhole()) {
            fail("input over the declared " + limit + "-token limit was embedded: refuse it with an InvalidInputException "
                    + "(or document embedsOversizedInputWhole())");
        }
        assertEquals(2, vectors.size());
        requireWellFormed("oversized document", vectors.get(1));
    }

    @Test
    void concurrentCallersGetTheSameVectorsAsASingleCaller() throws Exception {
        List<String> texts = sampleTexts();
        List<float[]> expected = embedder.embedDocuments(texts);
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<List<float[]>>> futures = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                futures.add(pool.submit(() -> embedder.embedDocuments(texts)));
            }
            for (Future<List<float[]>> future : futures) {
                List<float[]> got = future.get();
                for (int i = 0; i < texts.size(); i++) {
                    assertArrayEquals(expected.get(i), got.get(i), "document " + i + " embedded concurrently");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aSecondInstanceHasTheSameFingerprintAndVectors() throws Exception {
        try (Embedder second = newEmbedder()) {
            assertEquals(embedder.fingerprint(), second.fingerprint(), "the same configuration must give the same fingerprint");
            List<String> texts = sampleTexts();
            List<float[]> first = embedder.embedDocuments(texts);
            List<float[]> again = second.embedDocuments(texts);
            for (int i = 0; i < texts.size(); i++) {
                assertArrayEquals(first.get(i), again.get(i), "one fingerprint, one vector: document " + i);
            }
        }
    }

    private void requireWellFormed(String what, float[] vector) {
        EmbedderFingerprint fingerprint = embedder.fingerprint();
        assertEquals(fingerprint.dimension(), vector.length, what + ": width must be the fingerprint's");
        double squares = 0;
        for (int i = 0; i < vector.length; i++) {
            assertTrue(Float.isFinite(vector[i]), what + ": component " + i + " is " + vector[i]);
            squares += (double) vector[i] * vector[i];
        }
        assertTrue(squares > 0, what + ": an all-zero vector has no direction");
        if (fingerprint.normalized()) {
            assertEquals(1.0, Math.sqrt(squares), NORM_TOLERANCE, what + ": the fingerprint says L2-normalised");
        }
    }

    /** Fails unless {@code e} is the SPI's caller error (so the server answers 400 and does not retry). */
    static void requireCallerError(String what, RuntimeException e) {
        if (ClassifiedFailure.of(e).orElse(null) != FailureKind.CALLER_ERROR) {
            throw new AssertionError(what + " must fail as a caller error (InvalidInputException or PluginException"
                    + " of kind CALLER_ERROR), got " + e, e);
        }
        assertTrue(e.getMessage() != null && !e.getMessage().isBlank(), what + ": the message tells the caller why");
    }
}
