package io.corpora.answer;

import io.corpora.engine.retriever.RetrievalDiagnostics;
import io.corpora.spi.generate.TokenUsage;
import java.util.List;
import java.util.Objects;

/**
 * An answer to one question.
 *
 * @param answer      the model's text with its citation markers checked (markers naming no passage removed), or the
 *                    tenant's "no source" sentence when no passage was found (the model was then not called)
 * @param citations   only the passages the answer cites, in the order it first cites them
 * @param usage       tokens the model call consumed ({@link TokenUsage#UNKNOWN} when none was made or none reported)
 * @param diagnostics what happened on the way
 */
public record Answer(String answer, List<AnswerCitation> citations, TokenUsage usage, Diagnostics diagnostics) {

    public Answer {
        Objects.requireNonNull(answer, "answer");
        citations = List.copyOf(citations);
        usage = usage == null ? TokenUsage.UNKNOWN : usage;
        Objects.requireNonNull(diagnostics, "diagnostics");
    }

    /**
     * @param noSource          no passage passed the floor, so the model was not called
     * @param model             the model that answered (null without a model call)
     * @param passagesInContext passages numbered in the context the model saw
     * @param removedCitations  markers in the model's text that named no passage, removed
     * @param finishReason      why the model stopped ({@code stop}, {@code length} …), null when unknown or not called
     * @param transforms        the query transforms that ran, each with whether it fell back
     * @param retrieval         the diagnostics of the retrieval (of the original question when transforms fused several)
     */
    public record Diagnostics(boolean noSource, String model, int passagesInContext, int removedCitations, String finishReason,
                              List<TransformReport> transforms, RetrievalDiagnostics retrieval) {
        public Diagnostics {
            transforms = List.copyOf(transforms);
        }
    }

    /**
     * One query transform of this question.
     *
     * @param name     {@code multi-query} or {@code hyde}
     * @param fellBack true when the model failed or timed out and the original question was used alone
     * @param queries  the extra queries the transform retrieved with (empty when it fell back)
     * @param reason   why it fell back, or null
     */
    public record TransformReport(String name, boolean fellBack, List<String> queries, String reason) {
        public TransformReport {
            queries = List.copyOf(queries);
        }
    }
}
