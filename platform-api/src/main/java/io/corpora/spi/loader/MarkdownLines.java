package io.corpora.spi.loader;

/**
 * The two Markdown line forms that both sides of {@link ContentFormat#MARKDOWN} must read alike — the loader that
 * finds a title and the server's chunker that splits by heading: ATX headings and code-fence markers. Hand-written
 * scanners, one pass over the line each, so a hostile line costs linear time whatever its shape (backtracking patterns
 * for the same forms are quadratic on a heading followed by a long run of spaces).
 */
public final class MarkdownLines {

    private MarkdownLines() {}

    /**
     * An ATX heading line: up to 3 spaces, 1–6 {@code #}, at least one space or tab, the text.
     *
     * @param level the number of {@code #}
     * @param text  the text after the opening sequence and its spaces, without trailing spaces and tabs and without a
     *              closing sequence of {@code #} that follows a space or tab (may be empty)
     */
    public record Heading(int level, String text) {}

    /** The heading this line is, or null. */
    public static Heading heading(String line) {
        int i = leadingSpaces(line);
        if (i < 0) {
            return null;
        }
        int hashes = i;
        while (i < line.length() && line.charAt(i) == '#') {
            i++;
        }
        int level = i - hashes;
        if (level < 1 || level > 6 || i == line.length() || !isSpaceOrTab(line.charAt(i))) {
            return null;
        }
        while (i < line.length() && isSpaceOrTab(line.charAt(i))) {
            i++;
        }
        int end = line.length();
        while (end > i && isSpaceOrTab(line.charAt(end - 1))) {
            end--;
        }
        int closing = end;
        while (closing > i && line.charAt(closing - 1) == '#') {
            closing--;
        }
        if (closing < end && closing > i && isSpaceOrTab(line.charAt(closing - 1))) {
            end = closing;
            while (end > i && isSpaceOrTab(line.charAt(end - 1))) {
                end--;
            }
        }
        return new Heading(level, line.substring(i, end));
    }

    /** The fence marker ({@code ```} or {@code ~~~}) this line opens or closes a code block with, or null. */
    public static String fence(String line) {
        int i = leadingSpaces(line);
        if (i < 0) {
            return null;
        }
        if (line.startsWith("```", i)) {
            return "```";
        }
        return line.startsWith("~~~", i) ? "~~~" : null;
    }

    /** Where the content starts after at most 3 leading spaces, or -1 when the line is indented by 4 or more. */
    private static int leadingSpaces(String line) {
        int i = 0;
        while (i < line.length() && line.charAt(i) == ' ') {
            if (++i > 3) {
                return -1;
            }
        }
        return i;
    }

    private static boolean isSpaceOrTab(char c) {
        return c == ' ' || c == '\t';
    }
}
