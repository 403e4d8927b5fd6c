package io.corpora.retrieval;

import io.corpora.engine.retriever.ContextBlock;
import io.corpora.engine.retriever.RetrievalDiagnostics;
import java.util.List;
import java.util.Map;

/**
 * What a retrieval returns: passages with citations (reserved keys removed from their metadata), the numbered
 * context block for the prompt, and diagnostics.
 */
public record RetrievalResponse(List<CitedPassage> passages, ContextBlock context, RetrievalDiagnostics diagnostics) {

    /** A passage as callers see it. */
    public record CitedPassage(String id, String text, double score, String source, Map<String, Object> metadata, Citation citation) {}

    /**
     * Where a passage comes from.
     *
     * @param index 1-based number of the passage in the context block, or 0 when it did not fit the budget
     */
    public record Citation(int index, String documentId, int chunkIndex, String source, List<String> headingPath, Object page) {}
}
