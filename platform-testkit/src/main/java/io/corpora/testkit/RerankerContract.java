package io.corpora.testkit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.rerank.Reranker;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * The behaviour every {@link Reranker} must show, as a reusable JUnit 5 suite: a reranker plugin's test extends this
 * class and supplies {@link #newReranker()} (one instance serves the class).
 *
 * <p>What it holds a reranker to: one finite score per text, aligned with the texts; an empty list gives an empty
 * array; the same call gives the same scores; ties are stable — a text repeated later in the list never scores above
 * its earlier copy, so the engine's stable sort keeps the input order among equals; and, unless the reranker declares
 * {@link #scoresDependOnInputOrder()} (e.g. it fuses the first stage's order into its score), a text's score does not
 * depend on where it stands or what it is scored with.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@Timeout(120)
public abstract class RerankerContract {

    private Reranker reranker;

    /** A new, ready reranker. */
    protected abstract Reranker newReranker() throws Exception;

    /** Whether scores deliberately depend on the candidates' input order (first-stage rank fusion). */
    protected boolean scoresDependOnInputOrder() {
        return false;
    }

    /** How far two scores of the same (query, text) may differ across calls of different batch composition. */
    protected double scoreTolerance() {
        return 1e-5;
    }

    protected String query() {
        return "how do vector databases find nearest neighbours?";
    }

    /** Candidate passages: relevant, unrelated, short, long, non-Latin. */
    protected List<String> candidates() {
        return List.of(
                "Vector databases use approximate nearest neighbour indexes such as HNSW graphs.",
                "The recipe calls for two eggs and a cup of flour.",
                "Nearest neighbours.",
                "An HNSW index links each vector to its neighbours on several layers; a search descends from the top layer, "
                        + "greedily moving to closer neighbours, which finds near neighbours in logarithmic time.",
                "ベクトル検索は近傍探索を使う。");
    }

    @BeforeAll
    final void openReranker() throws Exception {
        reranker = newReranker();
    }

    @AfterAll
    final void closeReranker() {
        if (reranker != null) {
            reranker.close();
        }
    }

    protected final Reranker reranker() {
        return reranker;
    }

    @Test
    void oneFiniteScorePerTextAlignedWithTheTexts() {
        double[] scores = reranker.score(query(), candidates());
        assertEquals(candidates().size(), scores.length, "one score per text");
        for (int i = 0; i < scores.length; i++) {
            assertTrue(Double.isFinite(scores[i]), "score " + i + " is " + scores[i]);
        }
        double[] single = reranker.score(query(), List.of(candidates().get(0)));
        assertEquals(1, single.length);
        assertTrue(Double.isFinite(single[0]), "a single text's score is " + single[0]);
    }

    @Test
    void anEmptyListGivesNoScores() {
        assertEquals(0, reranker.score(query(), List.of()).length);
    }

    @Test
    void theSameCallGivesTheSameScores() {
        double[] first = reranker.score(query(), candidates());
        double[] second = reranker.score(query(), candidates());
        for (int i = 0; i < first.length; i++) {
            assertEquals(first[i], second[i], scoreTolerance(), "score " + i + " of the same call");
        }
    }

    @Test
    void tiesAreStableARepeatedTextNeverOutscoresItsEarlierCopy() {
        List<String> texts = new ArrayList<>(candidates());
        texts.addAll(candidates());
        double[] scores = reranker.score(query(), texts);
        int n = candidates().size();
        for (int i = 0; i < n; i++) {
            assertTrue(scores[i + n] <= scores[i] + (scoresDependOnInputOrder() ? 0 : scoreTolerance()),
                    "text " + i + " repeated at " + (i + n) + " scored " + scores[i + n] + " above its first copy's " + scores[i]);
            if (!scoresDependOnInputOrder()) {
                assertEquals(scores[i], scores[i + n], scoreTolerance(), "equal texts get equal scores");
            }
        }
    }

    @Test
    void aTextsScoreDoesNotDependOnItsPositionOrCompany() {
        if (scoresDependOnInputOrder()) {
            org.junit.jupiter.api.Assumptions.abort("the reranker fuses the input order into its scores, by design");
        }
        List<String> texts = candidates();
        double[] inOrder = reranker.score(query(), texts);
        List<String> backwards = new ArrayList<>(texts);
        Collections.reverse(backwards);
        double[] reversed = reranker.score(query(), backwards);
        for (int i = 0; i < texts.size(); i++) {
            assertEquals(inOrder[i], reversed[texts.size() - 1 - i], scoreTolerance(), "text " + i + " scored in reverse order");
            assertEquals(inOrder[i], reranker.score(query(), List.of(texts.get(i)))[0], scoreTolerance(), "text " + i + " scored alone");
        }
    }

    @Test
    void concurrentCallersGetTheSameScores() throws Exception {
        double[] expected = reranker.score(query(), candidates());
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<double[]>> futures = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                futures.add(pool.submit(() -> reranker.score(query(), candidates())));
            }
            for (Future<double[]> future : futures) {
                double[] got = future.get();
                for (int i = 0; i < expected.length; i++) {
                    assertEquals(expected[i], got[i], scoreTolerance(), "score " + i + " computed concurrently");
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
