package io.corpora.retrieval;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class RetrieveLimitsTest {

    private final RetrieveLimits limits = RetrieveLimits.DEFAULT;

    private String refused(String query) {
        return assertThrows(IllegalArgumentException.class, () -> limits.query(query)).getMessage();
    }

    /** {@code count} distinct two-character words (aa, ab, …; up to 1,296), 3 characters each with a separator. */
    private static String words(int count, String separator) {
        String alphabet = "abcdefghijklmnopqrstuvwxyz0123456789";
        return IntStream.range(0, count).mapToObj(i -> "" + alphabet.charAt(i / alphabet.length()) + alphabet.charAt(i % alphabet.length()))
                .collect(Collectors.joining(separator));
    }

    @Test
    void termsAreRunsOfLettersAndDigitsWhateverSeparatesThem() {
        assertEquals(2, QueryTerms.count("Hello, world!"));
        assertEquals(3, QueryTerms.count("a,b;c"));
        assertEquals(2, QueryTerms.count("nai\u0308ve cafe\u0301"), "combining marks stay in their word");
        assertEquals(5, QueryTerms.count("東京タワー"), "each ideograph and kana is a term of its own");
        assertEquals(0, QueryTerms.count(" ,.;- "));
    }

    @Test
    void aQueryHasAtMostTheConfiguredTermsAndCharacters() {
        assertEquals(words(256, " "), limits.query(words(256, " ")));
        assertTrue(refused(words(257, " ")).contains("257 terms; at most 256"));
        assertTrue(refused(words(1200, ",")).contains("1200 terms"), "no whitespace needed to make terms");
        assertTrue(refused("漢".repeat(1300)).contains("1300 terms"));
        assertTrue(refused("q".repeat(4097)).contains("4097 characters; at most 4096"));
        assertTrue(refused("lan\u0000terns").contains("U+0000"));
        assertEquals("tabs\tand\nlines", limits.query("tabs\tand\nlines"));
    }

    @Test
    void aFilterIsBoundedAndComparesOnlyWithStorableText() {
        List<Integer> values = IntStream.range(0, 1025).boxed().toList();
        assertTrue(assertThrows(IllegalArgumentException.class, () -> limits.filter(Map.of("k", Map.of("$in", values))))
                .getMessage().contains("1025 values; at most 1024"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> limits.filter(Map.of("$not", Map.of("k", "a\u0000b"))))
                .getMessage().contains("the filter on 'k' contains the control character U+0000"));
        assertEquals(io.corpora.spi.MetadataFilter.eq("k", "v"), limits.filter(Map.of("k", "v")));
    }
}
