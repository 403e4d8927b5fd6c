package io.corpora.engine.chunk;

import java.util.ArrayList;
import java.util.List;

/**
 * The prose rule: a window of {@code chunkSize} characters whose cut backs up to the nearest paragraph break,
 * then sentence end, then word boundary found in the back half of the window (a single huge word is cut
 * hard). The next window starts {@code overlap} characters before the cut, moved forward to a word start, so
 * context carries across the seam. With a token limit, a window whose text exceeds it is shrunk (binary search)
 * and the same back-off applies inside the shrunken window.
 *
 * <p>Guarantees, for any input: it terminates (every window starts after the previous one), every
 * non-whitespace character lies in some span, no span is blank, and the overlap carried into a window is at most
 * {@code overlap} and at most half of the previous window (so a tightly token-limited window still advances).
 */
public final class WindowSplitter {

    /** A half-open range of the input, {@code [start, end)}, starting and ending on non-whitespace. */
    public record Span(int start, int end) {
        public Span {
            if (start < 0 || end <= start) {
                throw new IllegalArgumentException("bad span [" + start + ", " + end + ")");
            }
        }

        public String of(String text) {
            return text.substring(start, end);
        }
    }

    private WindowSplitter() {}

    public static List<Span> split(String text, ChunkingOptions options) {
        return split(text, options, DocumentDeadline.NONE);
    }

    /** {@link #split(String, ChunkingOptions)}, checking the document's deadline window by window. */
    public static List<Span> split(String text, ChunkingOptions options, DocumentDeadline deadline) {
        List<Span> spans = new ArrayList<>();
        int n = text.length();
        int start = skipWhitespace(text, 0);
        while (start < n) {
            deadline.check("cutting windows");
            int hardEnd = safeCut(text, start, Math.min(n, start + options.chunkSize()));
            int end = hardEnd == n ? n : backOff(text, start, hardEnd);
            if (!options.fitsTokens(text.substring(start, end))) {
                int limit = largestFittingEnd(text, start, end, options);
                end = limit == n ? n : backOff(text, start, limit);
            }
            spans.add(new Span(start, trimEnd(text, start, end)));
            if (end >= n) {
                break;
            }
            start = skipWhitespace(text, nextStart(text, start, end, options.overlap()));
        }
        return spans;
    }

    /** Where to cut a window {@code [start, hardEnd)} with {@code hardEnd < text.length()}. */
    static int backOff(String text, int start, int hardEnd) {
        int lowest = start + Math.max(1, (hardEnd - start) / 2);
        for (int i = hardEnd - 2; i >= lowest; i--) { // bounded scan: lastIndexOf would walk back to the text's start
            if (text.charAt(i) == '\n' && text.charAt(i + 1) == '\n') {
                return i + 1;
            }
        }
        for (int i = hardEnd - 1; i >= lowest; i--) {
            if (isSentenceEnd(text.charAt(i)) && Character.isWhitespace(text.charAt(i + 1))) {
                return i + 1;
            }
        }
        for (int i = hardEnd; i >= lowest; i--) {
            if (Character.isWhitespace(text.charAt(i))) {
                return i;
            }
        }
        return hardEnd;
    }

    private static boolean isSentenceEnd(char c) {
        return c == '.' || c == '!' || c == '?' || c == '。' || c == '！' || c == '？';
    }

    /** The largest end in {@code (start, end]} whose text fits the token limit; at least one character. */
    private static int largestFittingEnd(String text, int start, int end, ChunkingOptions options) {
        int low = start + 1;
        int high = end;
        while (low < high) {
            int mid = (low + high + 1) >>> 1;
            if (options.fitsTokens(text.substring(start, mid))) {
                low = mid;
            } else {
                high = mid - 1;
            }
        }
        return safeCut(text, start, low);
    }

    private static int nextStart(String text, int start, int end, int overlap) {
        int carried = Math.min(overlap, (end - start) / 2);
        int next = Math.max(start + 1, end - carried);
        if (next < end && !Character.isWhitespace(text.charAt(next - 1)) && !Character.isWhitespace(text.charAt(next))) {
            // inside a word: start the overlap at the next word instead of mid-word
            for (int i = next; i < end; i++) {
                if (Character.isWhitespace(text.charAt(i))) {
                    return i;
                }
            }
        }
        return splitsSurrogatePair(text, next) ? next + 1 : next; // forward: the overlap must not grow
    }

    private static boolean splitsSurrogatePair(String text, int cut) {
        return cut > 0 && cut < text.length() && Character.isHighSurrogate(text.charAt(cut - 1))
                && Character.isLowSurrogate(text.charAt(cut));
    }

    /** Never split a surrogate pair; a cut between them moves back (or forward when that would be empty). */
    private static int safeCut(String text, int start, int cut) {
        if (splitsSurrogatePair(text, cut)) {
            return cut - 1 > start ? cut - 1 : cut + 1;
        }
        return cut;
    }

    private static int skipWhitespace(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int trimEnd(String text, int start, int end) {
        int e = end;
        while (e > start + 1 && Character.isWhitespace(text.charAt(e - 1))) {
            e--;
        }
        return e;
    }
}
