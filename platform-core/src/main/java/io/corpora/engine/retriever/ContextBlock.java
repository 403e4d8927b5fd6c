package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import java.util.ArrayList;
import java.util.List;

/**
 * Passages rendered for prompt injection: a numbered, citable block
 * <pre>
 * &lt;retrieved_context&gt;
 * [1] (handbook.md) Hotel stays are reimbursed up to …
 * [2] (faq.md) …
 * &lt;/retrieved_context&gt;
 * </pre>
 * Within {@code maxChars} (the whole block, tags included) passages are taken in rank order and one that does not
 * fit is omitted whole; numbering stays consecutive so {@code [n]} cites {@code includedIds.get(n-1)}. A passage
 * can neither close the block early nor open another: whatever looks like one of its tags in passage text or sources,
 * in any case and spacing, is neutralised ({@link BlockDelimiters}).
 *
 * @param text        the block; empty when not even the tags fit or there are no passages
 * @param includedIds the cited passages, in citation order
 * @param omittedIds  passages that did not fit
 */
public record ContextBlock(String text, List<String> includedIds, List<String> omittedIds) {

    public static final String OPEN = "<retrieved_context>";
    public static final String CLOSE = "</retrieved_context>";

    public ContextBlock {
        includedIds = List.copyOf(includedIds);
        omittedIds = List.copyOf(omittedIds);
    }

    public static ContextBlock render(List<Passage> passages, Integer maxChars) {
        if (maxChars != null && maxChars < 1) {
            throw new IllegalArgumentException("maxChars must be positive, got " + maxChars);
        }
        StringBuilder body = new StringBuilder();
        List<String> included = new ArrayList<>();
        List<String> omitted = new ArrayList<>();
        int frame = OPEN.length() + 1 + CLOSE.length();
        for (Passage p : passages) {
            String entry = "[" + (included.size() + 1) + "] (" + BlockDelimiters.neutralise(p.source()).replaceAll("\\s+", " ").strip()
                    + ") " + BlockDelimiters.neutralise(p.text()).strip() + "\n";
            if (maxChars != null && frame + body.length() + entry.length() > maxChars) {
                omitted.add(p.id());
                continue;
            }
            body.append(entry);
            included.add(p.id());
        }
        if (included.isEmpty()) {
            return new ContextBlock("", included, omitted);
        }
        return new ContextBlock(OPEN + "\n" + body + CLOSE, included, omitted);
    }
}
