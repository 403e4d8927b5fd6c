package io.corpora.client.model;

import java.util.List;

/**
 * Where a passage comes from.
 *
 * @param index       the passage's {@code [n]} marker in the context block
 * @param headingPath the headings above the passage; null when the document has none
 * @param page        the page (a number, or a label) when the source has pages; else null
 */
public record Citation(int index, String documentId, int chunkIndex, String source, List<String> headingPath, Object page) {}
