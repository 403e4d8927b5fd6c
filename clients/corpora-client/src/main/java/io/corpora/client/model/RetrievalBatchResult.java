package io.corpora.client.model;

import java.util.List;

/** The answers to a retrieve:batch, in the order of its queries. */
public record RetrievalBatchResult(List<RetrievalResult> results) {}
