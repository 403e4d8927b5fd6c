package io.corpora.onnx;

import java.text.Normalizer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * BERT "basic" tokenization, exactly as Hugging Face's {@code BertNormalizer} + {@code BertPreTokenizer} do it:
 * drop control characters and map whitespace to spaces, put spaces around CJK ideographs, strip accents
 * (NFD, then drop non-spacing marks) and lower-case when the model is uncased, then split on whitespace and
 * isolate every punctuation character as its own word.
 */
public final class BertPreTokenizer {

    private final boolean lowercase;
    private final boolean stripAccents;
    private final boolean handleChineseChars;
    private final boolean cleanText;

    public BertPreTokenizer(boolean lowercase, boolean stripAccents, boolean handleChineseChars, boolean cleanText) {
        this.lowercase = lowercase;
        this.stripAccents = stripAccents;
        this.handleChineseChars = handleChineseChars;
        this.cleanText = cleanText;
    }

    /** The uncased English BERT configuration (bge, MiniLM, ms-marco cross-encoders). */
    public static BertPreTokenizer uncased() {
        return new BertPreTokenizer(true, true, true, true);
    }

    /** The words WordPiece sees, in order. */
    public List<String> words(String text) {
        return split(normalize(text));
    }

    String normalize(String text) {
        StringBuilder out = new StringBuilder(text.length() + 16);
        text.codePoints().forEach(cp -> {
            if (cleanText) {
                if (cp == 0 || cp == 0xFFFD || isControl(cp)) {
                    return;
                }
                if (isWhitespace(cp)) {
                    out.append(' ');
                    return;
                }
            }
            if (handleChineseChars && isCjkIdeograph(cp)) {
                out.append(' ').appendCodePoint(cp).append(' ');
                return;
            }
            out.appendCodePoint(cp);
        });
        String normalized = out.toString();
        if (stripAccents) {
            normalized = stripNonSpacingMarks(Normalizer.normalize(normalized, Normalizer.Form.NFD));
        }
        if (lowercase) {
            normalized = lowerCaseEachCodePoint(normalized);
        }
        return normalized;
    }

    private static List<String> split(String normalized) {
        List<String> words = new ArrayList<>();
        StringBuilder word = new StringBuilder();
        normalized.codePoints().forEach(cp -> {
            if (isWhitespace(cp)) {
                flush(word, words);
            } else if (isPunctuation(cp)) {
                flush(word, words);
                words.add(new String(Character.toChars(cp)));
            } else {
                word.appendCodePoint(cp);
            }
        });
        flush(word, words);
        return words;
    }

    private static void flush(StringBuilder word, List<String> words) {
        if (word.length() > 0) {
            words.add(word.toString());
            word.setLength(0);
        }
    }

    private static String stripNonSpacingMarks(String nfd) {
        StringBuilder out = new StringBuilder(nfd.length());
        nfd.codePoints().filter(cp -> Character.getType(cp) != Character.NON_SPACING_MARK).forEach(out::appendCodePoint);
        return out.toString();
    }

    // Per code point, like the Rust normalizer: no context-dependent rules (e.g. Greek final sigma).
    private static String lowerCaseEachCodePoint(String text) {
        StringBuilder out = new StringBuilder(text.length());
        text.codePoints().forEach(cp -> out.append(new String(Character.toChars(cp)).toLowerCase(Locale.ROOT)));
        return out.toString();
    }

    /** Rust's {@code char::is_whitespace} (Unicode White_Space), which includes tab, newline and carriage return. */
    static boolean isWhitespace(int cp) {
        return switch (cp) {
            case 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x20, 0x85, 0xA0, 0x1680, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000 -> true;
            default -> cp >= 0x2000 && cp <= 0x200A;
        };
    }

    /** Unicode "Other" categories (Cc, Cf, Cs, Co, Cn), except tab, newline and carriage return. */
    static boolean isControl(int cp) {
        if (cp == '\t' || cp == '\n' || cp == '\r') {
            return false;
        }
        return switch (Character.getType(cp)) {
            case Character.CONTROL, Character.FORMAT, Character.SURROGATE, Character.PRIVATE_USE, Character.UNASSIGNED -> true;
            default -> false;
        };
    }

    /** ASCII punctuation (which includes symbols such as $ + < = > ^ ` | ~) or any Unicode P* category. */
    static boolean isPunctuation(int cp) {
        if ((cp >= 33 && cp <= 47) || (cp >= 58 && cp <= 64) || (cp >= 91 && cp <= 96) || (cp >= 123 && cp <= 126)) {
            return true;
        }
        return switch (Character.getType(cp)) {
            case Character.CONNECTOR_PUNCTUATION, Character.DASH_PUNCTUATION, Character.START_PUNCTUATION,
                 Character.END_PUNCTUATION, Character.INITIAL_QUOTE_PUNCTUATION, Character.FINAL_QUOTE_PUNCTUATION,
                 Character.OTHER_PUNCTUATION -> true;
            default -> false;
        };
    }

    /** The CJK Unified Ideograph blocks BERT isolates (not Hangul, Hiragana or Katakana). */
    static boolean isCjkIdeograph(int cp) {
        return (cp >= 0x4E00 && cp <= 0x9FFF) || (cp >= 0x3400 && cp <= 0x4DBF) || (cp >= 0x20000 && cp <= 0x2A6DF)
                || (cp >= 0x2A700 && cp <= 0x2B73F) || (cp >= 0x2B740 && cp <= 0x2B81F) || (cp >= 0x2B820 && cp <= 0x2CEAF)
                || (cp >= 0xF900 && cp <= 0xFAFF) || (cp >= 0x2F800 && cp <= 0x2FA1F);
    }
}
