package io.corpora.engine.retriever;

/**
 * Makes passage text and sources unable to open or close the {@link ContextBlock}: anything a reader could take for
 * one of its tags loses its angle brackets. Tag-like means an opening bracket ({@code <}, or its full-width or small
 * form), optional spaces and a slash, then {@code retrieved} and {@code context} in any case, joined by nothing or by
 * spaces, underscores, dashes or invisible format characters ({@code </RETRIEVED_CONTEXT >}, {@code < /retrieved
 * context>}, {@code <Retrieved-Context\n>} …). Its {@code <} becomes {@code ‹} and a {@code >} right after the name
 * becomes {@code ›}; the text around is kept. One pass: each character is looked at a bounded number of times.
 */
final class BlockDelimiters {

    private static final String FIRST = "retrieved";
    private static final String SECOND = "context";

    private BlockDelimiters() {}

    static String neutralise(String text) {
        StringBuilder out = null;
        int copied = 0;
        int i = text.indexOf('<') < 0 && text.indexOf('\uFF1C') < 0 && text.indexOf('\uFE64') < 0 ? text.length() : 0;
        while (i < text.length()) {
            if (!isOpening(text.charAt(i))) {
                i++;
                continue;
            }
            int nameEnd = tagNameEnd(text, i + 1);
            if (nameEnd < 0) {
                i++;
                continue;
            }
            if (out == null) {
                out = new StringBuilder(text.length());
            }
            out.append(text, copied, i).append('‹').append(text, i + 1, nameEnd);
            int closing = skipBlanks(text, nameEnd);
            if (closing < text.length() && isClosing(text.charAt(closing))) {
                out.append(text, nameEnd, closing).append('›');
                closing++;
            } else {
                closing = nameEnd;
            }
            copied = closing;
            i = closing;
        }
        return out == null ? text : out.append(text, copied, text.length()).toString();
    }

    /** Where a tag name that starts (after blanks and a slash) at {@code from} ends, or -1 when there is none. */
    private static int tagNameEnd(String text, int from) {
        int i = skipBlanks(text, from);
        if (i < text.length() && (text.charAt(i) == '/' || text.charAt(i) == '\uFF0F')) {
            i = skipBlanks(text, i + 1);
        }
        i = word(text, i, FIRST);
        if (i < 0) {
            return -1;
        }
        while (i < text.length() && (isBlank(text.charAt(i)) || isJoiner(text.charAt(i)))) {
            i++;
        }
        return word(text, i, SECOND);
    }

    /** The end of {@code word} at {@code from} in any case (full-width letters too), or -1. */
    private static int word(String text, int from, String word) {
        if (from + word.length() > text.length()) {
            return -1;
        }
        for (int k = 0; k < word.length(); k++) {
            char c = text.charAt(from + k);
            if (c >= '\uFF21' && c <= '\uFF5A') {
                c = (char) (c - '\uFF21' + 'A'); // full-width Latin letters
            }
            char expected = word.charAt(k);
            if (Character.toLowerCase(c) != expected && Character.toUpperCase(c) != Character.toUpperCase(expected)) {
                return -1;
            }
        }
        return from + word.length();
    }

    private static int skipBlanks(String text, int from) {
        int i = from;
        while (i < text.length() && isBlank(text.charAt(i))) {
            i++;
        }
        return i;
    }

    /** Whitespace, any Unicode space and invisible format characters (zero-width space, joiners, soft hyphen). */
    private static boolean isBlank(char c) {
        return Character.isWhitespace(c) || Character.isSpaceChar(c) || Character.getType(c) == Character.FORMAT;
    }

    /** Underscores and dashes of any width. */
    private static boolean isJoiner(char c) {
        int type = Character.getType(c);
        return type == Character.CONNECTOR_PUNCTUATION || type == Character.DASH_PUNCTUATION;
    }

    private static boolean isOpening(char c) {
        return c == '<' || c == '\uFF1C' || c == '\uFE64';
    }

    private static boolean isClosing(char c) {
        return c == '>' || c == '\uFF1E' || c == '\uFE65';
    }
}
