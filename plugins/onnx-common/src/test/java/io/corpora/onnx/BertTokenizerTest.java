package io.corpora.onnx;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BertTokenizerTest {

    private static BertTokenizer tokenizer;

    @BeforeAll
    static void loadBundledTokenizer() {
        ModelBytes json = BundledModel.BGE_SMALL_EN_V15_Q.tokenizerBytes();
        tokenizer = BertTokenizer.fromJson(json.openStream(), json.source());
    }

    // Expected ids looked up by hand in the bundled tokenizer.json vocabulary.
    @Test
    void producesTheVocabularyIdsOfKnownTexts() {
        assertArrayEquals(new int[] {7592, 1010, 2088, 999}, tokenizer.tokenIds("Hello, World!"), "case folded, punctuation split");
        assertArrayEquals(new int[] {7668, 15743}, tokenizer.tokenIds("Café  naïve"), "accents stripped, whitespace collapsed");
        assertArrayEquals(new int[] {1781, 1755}, tokenizer.tokenIds("北京"), "each CJK ideograph is its own word");
        assertArrayEquals(new int[] {1052, 22275, 14494}, tokenizer.tokenIds("p53 mutations"), "WordPiece continuation '##53'");
        assertArrayEquals(new int[] {1002, 2753, 1012}, tokenizer.tokenIds("$50."), "ASCII symbols split like punctuation");
        assertArrayEquals(new int[] {100}, tokenizer.tokenIds("a".repeat(101)), "a word over 100 characters is [UNK]");
        assertArrayEquals(new int[0], tokenizer.tokenIds(" \t\n "), "whitespace only");
    }

    @Test
    void countsTokensWithoutSpecialTokens() {
        assertEquals(4, tokenizer.countTokens("Hello, World!"));
        assertEquals(0, tokenizer.countTokens(""));
        assertEquals(tokenizer.tokenIds("p53 mutations in tumors").length, tokenizer.countTokens("p53 mutations in tumors"));
    }

    @Test
    void userTypedSpecialTokensStayText() {
        int[] ids = tokenizer.tokenIds("[SEP]");
        assertArrayEquals(new int[] {1031, 19802, 1033}, ids, "'[' 'sep' ']' — never the control token 102");
    }

    @Test
    void singleAndPairEncodingsCarrySpecialTokensAndSegments() {
        Encoding single = tokenizer.single(new int[] {7592, 2088});
        assertArrayEquals(new long[] {101, 7592, 2088, 102}, single.inputIds());
        assertArrayEquals(new long[] {0, 0, 0, 0}, single.tokenTypeIds());
        assertArrayEquals(new long[] {1, 1, 1, 1}, single.attentionMask());

        Encoding pair = tokenizer.pair(new int[] {7592}, new int[] {2088, 999});
        assertArrayEquals(new long[] {101, 7592, 102, 2088, 999, 102}, pair.inputIds());
        assertArrayEquals(new long[] {0, 0, 0, 1, 1, 1}, pair.tokenTypeIds());
    }

    /** Hugging Face's own Rust tokenizer (through DJL) is the oracle: ids must agree on awkward inputs. */
    @Test
    void agreesWithHuggingFaceTokenizersOnAwkwardTexts(@TempDir Path cache) throws Exception {
        System.setProperty("DJL_CACHE_DIR", cache.toString());
        System.setProperty("ai.djl.offline", "true");
        Path json = cache.resolve("tokenizer.json");
        try (InputStream in = BundledModel.BGE_SMALL_EN_V15_Q.tokenizerBytes().openStream()) {
            Files.copy(in, json);
        }
        List<String> texts = List.of(
                "Hello, World!",
                "The quick brown fox jumps over the lazy dog.",
                "Represent this sentence for searching relevant passages: what causes tumor suppression?",
                "ÉCOLE NORMALE SUPÉRIEURE — Zürich, Ångström, façade, naïveté",
                "北京大学 and 東京 are cities; 한국어 stays whole; ひらがな too",
                "p53-mediated apoptosis (IC50 = 3.2µM) in HER2+ cells; 5'-UTR, 3′ end",
                "e-mail: someone@example.com, URL https://x.y/z?a=1&b=2#frag",
                "Tabs\tand\nnewlines\r\nand\u00A0no-break\u2003em-space",
                "zero\u200Bwidth, soft\u00ADhyphen, bidi\u202Emark, bell\u0007char",
                "emoji 😀👍🏽 and symbols € £ ¥ © ® ™ ± × ÷ ≤ ≥ ∞",
                "«quotes» „low“ ‘single’ “double” …ellipsis… ¿qué? ¡sí!",
                "ΣΊΣΥΦΟΣ ΌΔΟΣ, Привет мир, مرحبا بالعالم, שלום",
                "supercalifragilisticexpialidocious antidisestablishmentarianism",
                "a".repeat(100) + " " + "b".repeat(101),
                "[CLS] [SEP] [MASK] [PAD] [UNK] tokens typed by a user",
                "x\uFFFDy\u0000z",
                "COVID-19 vaccines reduced hospitalisation by 90% (95% CI 85–93%).",
                "   leading and trailing spaces   ",
                "");
        List<String> mismatches = new ArrayList<>();
        try (HuggingFaceTokenizer oracle = HuggingFaceTokenizer.newInstance(json, Map.of("addSpecialTokens", "false"))) {
            for (String text : texts) {
                if (text.contains("[CLS]")) {
                    continue; // deliberate difference, covered by userTypedSpecialTokensStayText
                }
                long[] expected = oracle.encode(text).getIds();
                int[] actual = tokenizer.tokenIds(text);
                if (!Arrays.equals(expected, Arrays.stream(actual).asLongStream().toArray())) {
                    mismatches.add(text + " → expected " + Arrays.toString(expected) + " got " + Arrays.toString(actual));
                }
            }
        }
        assertTrue(mismatches.isEmpty(), String.join("\n", mismatches));
    }

    @Test
    void refusesATokenizerThatIsNotWordPiece() {
        String bpe = "{\"model\":{\"type\":\"BPE\",\"vocab\":{\"a\":0}}}";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> BertTokenizer.fromJson(new ByteArrayInputStream(bpe.getBytes(StandardCharsets.UTF_8)), "bpe.json"));
        assertTrue(e.getMessage().contains("bpe.json") && e.getMessage().contains("BPE"), e.getMessage());
    }
}
