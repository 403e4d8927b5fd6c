package io.corpora.server.api.model;

import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The answers to a retrieve:batch, in the order of its queries. */
@Schema(name = "RetrievalBatchResult")
public record RetrievalBatchResult(@Schema List<RetrievalResult> results) {}
