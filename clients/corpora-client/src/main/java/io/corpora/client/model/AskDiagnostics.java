package io.corpora.client.model;

import java.util.List;

/**
 * How an answer came about.
 *
 * @param noSource          no passage the caller may see passed the floor, so the model was not called
 * @param model             the model that answered; null without a model call
 * @param passagesInContext passages numbered in the context the model saw
 * @param removedCitations  markers the model wrote that named no passage, removed from the answer
 * @param finishReason      why the model stopped ({@code stop}, {@code length} …); null when unknown or not called
 * @param transforms        the query transforms that ran (multi-query, hyde), each with whether it fell back
 * @param retrieval         the diagnostics of the retrieval the answer is grounded in
 */
public record AskDiagnostics(boolean noSource, String model, int passagesInContext, int removedCitations, String finishReason,
                             List<AskTransform> transforms, Diagnostics retrieval) {}
