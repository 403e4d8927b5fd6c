package io.corpora.loader.html;

import io.corpora.loader.common.Deadline;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Set;
import java.util.regex.Pattern;
import org.jsoup.nodes.Element;
import org.jsoup.nodes.Node;
import org.jsoup.nodes.TextNode;
import org.jsoup.select.NodeTraversor;
import org.jsoup.select.NodeVisitor;

/**
 * Renders an HTML subtree as Markdown text: headings as {@code #} lines (so the Markdown chunker splits by them),
 * paragraphs separated by blank lines, list items as {@code -} / {@code 1.} lines, {@code <pre>} as fenced code,
 * table rows as {@code a | b} lines. Links keep their text only; images, URLs and inline styling are dropped.
 * Walks the tree iteratively (jsoup's {@link NodeTraversor}), so nesting depth cannot overflow the stack.
 * One instance per document.
 */
final class MarkdownWriter implements NodeVisitor {

    private static final Set<String> BLOCKS = Set.of("p", "div", "section", "article", "main", "header", "footer",
            "blockquote", "table", "thead", "tbody", "tfoot", "dl", "figure", "figcaption", "address", "details",
            "summary", "hr", "center", "body", "caption", "fieldset", "legend");
    private static final int NODES_PER_DEADLINE_CHECK = 1024;
    private static final Pattern WHITESPACE = Pattern.compile("\\s+");
    private static final Pattern LIST_MARKER_ONLY = Pattern.compile(" *(?:-|\\d+\\.) ");

    private final StringBuilder out = new StringBuilder();
    private final Deadline deadline;
    /** One entry per open list: the next item number for {@code <ol>}, -1 for {@code <ul>}. */
    private final Deque<int[]> lists = new ArrayDeque<>();
    private int preDepth;
    private int headingStart = -1;
    private boolean firstCellInRow;
    private long nodes;

    private MarkdownWriter(Deadline deadline) {
        this.deadline = deadline;
    }

    static String render(Element root, Deadline deadline) {
        MarkdownWriter writer = new MarkdownWriter(deadline);
        NodeTraversor.traverse(writer, root);
        return writer.out.toString().strip();
    }

    @Override
    public void head(Node node, int depth) {
        if (++nodes % NODES_PER_DEADLINE_CHECK == 0) {
            deadline.check("converting the HTML to text");
        }
        if (node instanceof TextNode text) {
            appendText(text.getWholeText());
            return;
        }
        if (!(node instanceof Element element)) {
            return;
        }
        String name = element.normalName();
        switch (name) {
            case "h1", "h2", "h3", "h4", "h5", "h6" -> {
                blankLine();
                out.append("#".repeat(name.charAt(1) - '0')).append(' ');
                headingStart = out.length();
            }
            case "pre" -> {
                if (preDepth++ == 0) {
                    blankLine();
                    out.append("```\n");
                }
            }
            case "br" -> {
                if (preDepth > 0) {
                    out.append('\n');
                } else if (headingStart < 0) {
                    newLine();
                }
            }
            case "ul", "ol" -> {
                if (lists.isEmpty()) {
                    blankLine();
                }
                lists.push(new int[] {name.equals("ol") ? 1 : -1});
            }
            case "li" -> {
                newLine();
                int[] list = lists.isEmpty() ? new int[] {-1} : lists.peek();
                out.append("  ".repeat(Math.max(0, lists.size() - 1)));
                out.append(list[0] < 0 ? "- " : (list[0]++) + ". ");
            }
            case "tr" -> {
                newLine();
                firstCellInRow = true;
            }
            case "td", "th" -> {
                if (!firstCellInRow) {
                    out.append(" | ");
                }
                firstCellInRow = false;
            }
            case "dt", "dd" -> newLine();
            default -> {
                if (BLOCKS.contains(name)) {
                    blockBreak();
                }
            }
        }
    }

    @Override
    public void tail(Node node, int depth) {
        if (!(node instanceof Element element)) {
            return;
        }
        String name = element.normalName();
        switch (name) {
            case "h1", "h2", "h3", "h4", "h5", "h6" -> {
                if (out.substring(headingStart).isBlank()) {
                    int markerLength = (name.charAt(1) - '0') + 1; // "## "
                    out.setLength(headingStart - markerLength); // an empty heading leaves no marker behind
                }
                headingStart = -1;
                blankLine();
            }
            case "pre" -> {
                if (--preDepth == 0) {
                    newLine();
                    out.append("```");
                    blankLine();
                }
            }
            case "ul", "ol" -> {
                lists.pop();
                if (lists.isEmpty()) {
                    blankLine();
                }
            }
            default -> {
                if (BLOCKS.contains(name)) {
                    blockBreak();
                }
            }
        }
    }

    private void appendText(String raw) {
        if (preDepth > 0) {
            out.append(raw);
            return;
        }
        String text = WHITESPACE.matcher(raw).replaceAll(" ");
        if (atLineStart() || endsWithSpace()) {
            text = text.stripLeading();
        }
        if (text.isEmpty()) {
            return;
        }
        if (atLineStart() && headingStart < 0 && (text.startsWith("#") || text.startsWith("```"))) {
            out.append('\\'); // literal text, not a heading or a fence, for the Markdown chunker
        }
        out.append(text);
    }

    /** Inside a list item a block only starts a new line; elsewhere it starts a paragraph. */
    private void blockBreak() {
        if (headingStart >= 0) {
            return; // a block inside a heading stays on the heading's line
        }
        if (lists.isEmpty()) {
            blankLine();
        } else {
            newLine();
        }
    }

    private void newLine() {
        if (LIST_MARKER_ONLY.matcher(out.subSequence(out.lastIndexOf("\n") + 1, out.length())).matches()) {
            return; // "<li><p>text" keeps the text on the item's line
        }
        trimTrailingSpaces();
        if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') {
            out.append('\n');
        }
    }

    private void blankLine() {
        newLine();
        if (out.length() > 0 && !(out.length() >= 2 && out.charAt(out.length() - 2) == '\n')) {
            out.append('\n');
        }
    }

    private void trimTrailingSpaces() {
        while (out.length() > 0 && out.charAt(out.length() - 1) == ' ' && preDepth == 0) {
            out.setLength(out.length() - 1);
        }
    }

    private boolean atLineStart() {
        return out.length() == 0 || out.charAt(out.length() - 1) == '\n';
    }

    private boolean endsWithSpace() {
        return out.length() > 0 && out.charAt(out.length() - 1) == ' ';
    }
}
