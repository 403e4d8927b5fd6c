package io.corpora.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Properties of the prose rule on arbitrary text: termination, coverage, bounded size, bounded overlap. */
class ChunkingPropertiesTest {

    @Provide
    Arbitrary<String> texts() {
        Arbitrary<String> word = Arbitraries.strings().withChars("abcdefghij😀é").ofMinLength(1).ofMaxLength(30);
        Arbitrary<String> glue = Arbitraries.of(" ", " ", " ", ". ", "\n", "\n\n", "  ", "! ", "\t");
        Arbitrary<String> prose = Arbitraries.just("").flatMap(ignored ->
                net.jqwik.api.Combinators.combine(word.list().ofMaxSize(200), glue.list().ofMaxSize(200))
                        .as((words, glues) -> {
                            StringBuilder b = new StringBuilder();
                            for (int i = 0; i < words.size(); i++) {
                                b.append(words.get(i)).append(glues.isEmpty() ? " " : glues.get(i % glues.size()));
                            }
                            return b.toString();
                        }));
        Arbitrary<String> raw = Arbitraries.strings().all().ofMaxLength(3_000);
        Arbitrary<String> hugeWord = Arbitraries.integers().between(1, 5_000).map("q"::repeat);
        return Arbitraries.oneOf(prose, prose, raw, hugeWord, Arbitraries.of("", " ", "\n\n\n", "\t \r\n"));
    }

    @Property(tries = 300)
    void coversEveryNonWhitespaceCharacterWithinSizeAndAdvances(@ForAll("texts") String text,
                                                                 @ForAll @IntRange(min = 2, max = 900) int size,
                                                                 @ForAll @IntRange(min = 0, max = 899) int overlapSeed) {
        int overlap = overlapSeed % size;
        List<WindowSplitter.Span> spans = WindowSplitter.split(text, ChunkingOptions.of(size, overlap));
        boolean[] covered = new boolean[text.length()];
        int previousStart = -1;
        int previousEnd = 0;
        for (WindowSplitter.Span span : spans) {
            assertTrue(span.start() > previousStart, "every window starts after the previous one");
            assertTrue(span.end() - span.start() <= size + 1, "a window is at most the size (+1 to keep a surrogate pair)");
            assertTrue(!span.of(text).isBlank(), "no blank chunk");
            if (previousStart >= 0) {
                assertTrue(previousEnd - span.start() <= overlap, "overlap carried is at most the configured overlap");
            }
            for (int i = span.start(); i < span.end(); i++) {
                covered[i] = true;
            }
            previousStart = span.start();
            previousEnd = span.end();
        }
        for (int i = 0; i < text.length(); i++) {
            if (!Character.isWhitespace(text.charAt(i))) {
                assertTrue(covered[i], "character " + i + " is in a chunk");
            }
        }
    }

    @Property(tries = 200)
    void overlapCarriesContextAcrossEverySeamOfWordyProse(@ForAll @IntRange(min = 20, max = 400) int words,
                                                          @ForAll @IntRange(min = 40, max = 300) int size) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < words; i++) {
            b.append("w").append(i % 97).append(i % 7 == 6 ? ". " : " ");
        }
        String text = b.toString();
        int overlap = size / 4;
        List<WindowSplitter.Span> spans = WindowSplitter.split(text, ChunkingOptions.of(size, overlap));
        for (int i = 1; i < spans.size(); i++) {
            assertTrue(spans.get(i).start() < spans.get(i - 1).end(), "consecutive chunks share text at seam " + i);
        }
    }

    @Property(tries = 100)
    void tokenLimitedChunksNeverExceedTheLimit(@ForAll("texts") String text, @ForAll @IntRange(min = 1, max = 40) int maxTokens) {
        ChunkingOptions options = new ChunkingOptions(400, 50, null, WhitespaceTokens::count, maxTokens);
        List<WindowSplitter.Span> spans = WindowSplitter.split(text, options);
        for (WindowSplitter.Span span : spans) {
            String chunk = span.of(text);
            assertTrue(WhitespaceTokens.count(chunk) <= maxTokens || !chunk.strip().contains(" ") && WhitespaceTokens.count(chunk) == 1,
                    "chunk within " + maxTokens + " tokens: " + chunk);
        }
        assertEquals(text.isBlank(), spans.isEmpty());
    }
}
