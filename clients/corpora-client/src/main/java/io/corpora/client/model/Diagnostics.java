package io.corpora.client.model;

import java.util.List;

/**
 * How a retrieval went. {@code examined}, {@code rejected}, {@code returned} and {@code recall} are the server's isolation
 * post-verification counts (null when not checked); {@code recall} is {@code complete} or {@code potentially-reduced};
 * {@code queryWindows} is how many windows of a long query were embedded and pooled, {@code queryTruncated} whether a
 * tail was left out.
 */
public record Diagnostics(List<RetrievalLeg> legs, double totalMillis, String embedder, Integer examined, Integer rejected,
                          Integer returned, String recall, Boolean corpusEmpty, List<Refusal> refusals, boolean degraded,
                          String degradedReason, List<String> notes, Integer queryWindows, boolean queryTruncated) {}
