package io.corpora.engine.chunk;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowSplitterTest {

    private static List<String> split(String text, int size, int overlap) {
        return WindowSplitter.split(text, ChunkingOptions.of(size, overlap)).stream().map(s -> s.of(text)).toList();
    }

    @Test
    void textThatFitsIsOneChunk() {
        assertEquals(List.of("Short text."), split("  Short text.  ", 800, 100));
    }

    @Test
    void emptyAndWhitespaceOnlyInputsGiveNoChunks() {
        assertEquals(List.of(), split("", 800, 100));
        assertEquals(List.of(), split(" \n\n\t  \r\n", 800, 100));
    }

    @Test
    void cutPrefersAParagraphBreakInTheBackHalf() {
        String first = "Alpha beta gamma. Delta epsilon zeta eta theta iota kappa.";
        String text = first + "\n\nLambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega.";
        List<String> chunks = split(text, 80, 0);
        assertEquals(first, chunks.get(0));
    }

    @Test
    void withoutAParagraphTheCutEndsASentence() {
        String text = "One two three four five. Six seven eight nine ten eleven twelve thirteen fourteen";
        List<String> chunks = split(text, 40, 0);
        assertEquals("One two three four five.", chunks.get(0));
    }

    @Test
    void withoutASentenceEndTheCutFallsOnAWord() {
        String text = "aaaa bbbb cccc dddd eeee ffff gggg hhhh";
        List<String> chunks = split(text, 12, 0);
        assertEquals("aaaa bbbb", chunks.get(0));
        chunks.forEach(c -> assertTrue(c.length() <= 12, c));
        assertEquals(String.join(" ", chunks), text);
    }

    @Test
    void aBoundaryInTheFrontHalfIsIgnoredSoChunksStayLarge() {
        // the only sentence end is at 10 of a 100-character window: cutting there would make a tiny chunk
        String text = "Tiny one. " + "x".repeat(40) + " " + "y".repeat(40) + " " + "z".repeat(40);
        List<String> chunks = split(text, 100, 0);
        assertTrue(chunks.get(0).length() > 50, chunks.get(0));
    }

    @Test
    void oneHugeWordIsCutHardAndTerminates() {
        String word = "x".repeat(2_000);
        List<String> chunks = split(word, 800, 100);
        assertEquals(3, chunks.size());
        assertEquals(800, chunks.get(0).length());
        chunks.forEach(c -> assertTrue(c.length() <= 800));
    }

    @Test
    void overlapCarriesWholeWordsAcrossTheSeam() {
        String text = "w00 w01 w02 w03 w04 w05 w06 w07 w08 w09 w10 w11 w12 w13 w14 w15 w16 w17 w18 w19";
        List<String> chunks = split(text, 24, 8);
        for (int i = 1; i < chunks.size(); i++) {
            String previous = chunks.get(i - 1);
            String firstWord = chunks.get(i).split(" ")[0];
            int seam = previous.indexOf(" " + firstWord);
            assertTrue(seam > 0, "chunk " + i + " starts with a word of the previous chunk: " + chunks);
            String carried = previous.substring(seam + 1);
            assertTrue(chunks.get(i).startsWith(carried) && carried.length() <= 8, "whole words carried, within the overlap: " + chunks);
        }
    }

    @Test
    void overlapAtOrAboveTheSizeIsRejectedWithTheReason() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ChunkingOptions.of(100, 100));
        assertTrue(e.getMessage().contains("overlap (100) must be smaller than chunkSize (100)"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ChunkingOptions.of(100, 250));
        assertThrows(IllegalArgumentException.class, () -> ChunkingOptions.of(0, 0));
    }

    @Test
    void surrogatePairsAreNeverSplit() {
        String text = "😀".repeat(100); // 200 chars, no whitespace
        for (String chunk : split(text, 7, 2)) {
            assertTrue(!Character.isLowSurrogate(chunk.charAt(0)) && !Character.isHighSurrogate(chunk.charAt(chunk.length() - 1)), chunk);
        }
    }

    @Test
    void defaultsAre800And100() {
        ChunkingOptions options = ChunkingOptions.defaults();
        assertEquals(800, options.chunkSize());
        assertEquals(100, options.overlap());
    }

    @Test
    void aLargeTextWithoutParagraphsIsSplitInLinearTime() {
        String text = "word ".repeat(400_000); // 2 MB, no paragraph break: each back-off must stay inside its window
        long start = System.nanoTime();
        List<WindowSplitter.Span> spans = WindowSplitter.split(text, ChunkingOptions.defaults());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(spans.size() > 2_800, "spans: " + spans.size());
        assertTrue(millis < 5_000, "took " + millis + " ms");
    }
}
