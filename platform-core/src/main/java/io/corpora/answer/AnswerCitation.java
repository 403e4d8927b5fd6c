package io.corpora.answer;

import java.util.List;

/**
 * A passage of an answer's context.
 *
 * @param n           its number in the context block, the {@code [n]} the answer cites it by
 * @param passageId   the chunk id
 * @param documentId  the document it comes from
 * @param source      the document's source (file name, URL …), or null
 * @param headingPath the headings above it, outermost first
 * @param text        the passage text
 */
public record AnswerCitation(int n, String passageId, String documentId, String source, List<String> headingPath, String text) {
    public AnswerCitation {
        headingPath = List.copyOf(headingPath);
    }
}
