package io.corpora.client.model;

import io.corpora.client.PassageMetadata;
import java.util.List;
import java.util.Map;

/**
 * A passage an answer is grounded in: in a streamed ask's {@code retrieval} event every numbered passage of the
 * context, in an {@link AskResponse} only the cited ones.
 *
 * @param n           its number in the context, the {@code [n]} the answer cites it by
 * @param passageId   the chunk id (a retrieve's {@code Passage.id})
 * @param source      the document's source (file name, URL …), or null
 * @param headingPath the headings above it, outermost first (empty when none)
 */
public record AnswerCitation(int n, String passageId, String documentId, String source, List<String> headingPath, String text) {

    /** The metadata a framework adapter attaches to the passage, under the same keys as a retrieved passage's. */
    public Map<String, Object> metadata() {
        return PassageMetadata.of(this);
    }
}
