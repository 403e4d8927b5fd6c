package io.corpora.client.model;

import java.util.List;

/** The answer to one retrieve: cited passages, the context block built from them, and how the retrieval went. */
public record RetrievalResult(List<Passage> passages, String context, Diagnostics diagnostics) {}
