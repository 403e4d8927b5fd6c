package io.corpora.engine.embed;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.InvalidInputException;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.embed.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class QueryWindowsTest {

    /**
     * A test input with a real limit: one token per word, at most {@code limit} words per query, refused beyond it as
     * the ONNX embedder refuses; the vector counts "red" and "blue" words, L2-normalised.
     */
    static class WordEmbedder implements Embedder {
        final int limit;
        final boolean reportsWindow;
        final boolean hasTokenizer;
        final List<String> embedded = new ArrayList<>();

        WordEmbedder(int limit, boolean reportsWindow, boolean hasTokenizer) {
            this.limit = limit;
            this.reportsWindow = reportsWindow;
            this.hasTokenizer = hasTokenizer;
        }

        @Override
        public EmbedderFingerprint fingerprint() {
            return new EmbedderFingerprint("test", "words", 2, true, "1");
        }

        @Override
        public List<float[]> embedDocuments(List<String> texts) {
            return texts.stream().map(this::embedQuery).toList();
        }

        @Override
        public float[] embedQuery(String query) {
            String[] words = query.strip().split("\\s+");
            if (words.length > limit) {
                throw new InvalidInputException("input of " + words.length + " tokens exceeds the " + limit + "-token limit");
            }
            embedded.add(query);
            float red = 0;
            float blue = 0;
            for (String w : words) {
                red += w.equals("red") ? 1 : 0;
                blue += w.equals("blue") ? 1 : 0;
            }
            float norm = (float) Math.sqrt(red * red + blue * blue);
            return norm == 0 ? new float[] {0, 0} : new float[] {red / norm, blue / norm};
        }

        @Override
        public int maxQueryTokens() {
            return reportsWindow ? limit : 0;
        }

        @Override
        public Optional<TokenCounter> tokenCounter() {
            return hasTokenizer ? Optional.of(text -> text.isBlank() ? 0 : text.strip().split("\\s+").length) : Optional.empty();
        }
    }

    @Test
    void aQueryThatFitsIsEmbeddedWhole() {
        WordEmbedder embedder = new WordEmbedder(5, true, true);
        QueryWindows.Embedded e = QueryWindows.embed(embedder, "red red blue");
        assertEquals(1, e.windows());
        assertFalse(e.truncated());
        assertEquals(List.of("red red blue"), embedder.embedded);
        assertTrue(QueryWindows.fits(embedder, "red red blue"));
        assertFalse(QueryWindows.fits(embedder, "a b c d e f"));
    }

    @Test
    void aLongQueryIsSplitIntoWindowsWhoseVectorsAreMeanPooledAndNormalised() {
        WordEmbedder embedder = new WordEmbedder(3, true, true);
        QueryWindows.Embedded e = QueryWindows.embed(embedder, "red red red  blue blue blue");
        assertEquals(List.of("red red red", "blue blue blue"), embedder.embedded, "every word is embedded, in windows that fit");
        assertEquals(2, e.windows());
        assertFalse(e.truncated());
        float h = (float) Math.sqrt(0.5);
        assertArrayEquals(new float[] {h, h}, e.vector(), 1e-6f, "mean of (1,0) and (0,1), L2-normalised");
    }

    @Test
    void beyondTheWindowCapTheTailIsDroppedAndFlagged() {
        WordEmbedder embedder = new WordEmbedder(1, true, true);
        String query = "red ".repeat(QueryWindows.MAX_WINDOWS) + "blue blue";
        QueryWindows.Embedded e = QueryWindows.embed(embedder, query);
        assertEquals(QueryWindows.MAX_WINDOWS, e.windows());
        assertTrue(e.truncated());
        assertArrayEquals(new float[] {1, 0}, e.vector(), 1e-6f);
    }

    @Test
    void aLegacyEmbedderFallsBackToItsInputLimitLessAMargin() {
        Embedder legacy = new WordEmbedder(100, false, true) {
            @Override
            public int maxInputTokens() {
                return 100 + QueryWindows.LEGACY_MARGIN;
            }
        };
        assertEquals(100, QueryWindows.window(legacy));
        assertEquals(3, QueryWindows.embed(legacy, "red ".repeat(250)).windows());
    }

    @Test
    void withoutATokenizerARefusedQueryIsHalvedUntilEveryPartEmbeds() {
        WordEmbedder embedder = new WordEmbedder(2, false, false);
        QueryWindows.Embedded e = QueryWindows.embed(embedder, "red red blue blue red blue");
        assertEquals(4, e.windows(), embedder.embedded.toString());
        assertEquals("red red blue blue red blue", String.join(" ", embedder.embedded), "the parts cover the query in order");
        assertFalse(e.truncated());
    }

    @Test
    void aWordLongerThanTheWindowIsCut() {
        TokenCounter perChar = String::length;
        List<String> windows = QueryWindows.split("ab abcdefgh c", perChar, 3);
        windows.forEach(w -> assertTrue(perChar.countTokens(w) <= 3, w));
        assertEquals("ababcdefghc", String.join("", windows).replace(" ", ""));
    }
}
