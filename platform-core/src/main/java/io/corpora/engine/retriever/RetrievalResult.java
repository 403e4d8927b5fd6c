package io.corpora.engine.retriever;

import io.corpora.spi.Passage;
import java.util.List;
import java.util.Objects;

/** The passages of one retrieval, best first, and how they were found. */
public record RetrievalResult(List<Passage> passages, RetrievalDiagnostics diagnostics) {

    public RetrievalResult {
        passages = List.copyOf(passages);
        Objects.requireNonNull(diagnostics, "diagnostics");
    }

    public List<String> ids() {
        return passages.stream().map(Passage::id).toList();
    }
}
