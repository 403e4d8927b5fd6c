package io.corpora.server.api;

import io.corpora.answer.Answer;
import io.corpora.answer.AnswerCitation;
import io.corpora.server.api.model.Diagnostics;
import io.corpora.spi.generate.TokenUsage;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An answer as {@code POST ask} returns it (and as the final {@code done} event of a stream carries it). Every part is
 * a record, so the OpenAPI document names each field and a client can check it against its own types.
 *
 * @param answer      the text, citation markers checked
 * @param citations   only the cited passages, in order of first citation; {@code n} is the marker that cites it
 * @param usage       token counts the backend reported (fields null when it did not)
 * @param diagnostics noSource, model, passagesInContext, removedCitations, finishReason, transforms, retrieval
 */
@Schema(name = "AskResponse")
@JsonbPropertyOrder({"answer", "citations", "usage", "diagnostics"})
public record AskResponse(@Schema String answer, @Schema List<Cited> citations, @Schema Usage usage,
                          @Schema AskDiagnostics diagnostics) {

    /** A cited passage ({@link AnswerCitation} as served; declared here so the OpenAPI document lists its fields). */
    @Schema(name = "AnswerCitation")
    @JsonbPropertyOrder({"n", "passageId", "documentId", "source", "headingPath", "text"})
    public record Cited(@Schema(description = "the [n] marker that cites it") int n, @Schema String passageId, @Schema String documentId,
                        @Schema String source, @Schema(description = "headings above it, outermost first") List<String> headingPath,
                        @Schema String text) {
        static Cited of(AnswerCitation c) {
            return new Cited(c.n(), c.passageId(), c.documentId(), c.source(), c.headingPath(), c.text());
        }
    }

    /** Token counts. */
    @Schema(name = "AskUsage")
    @JsonbPropertyOrder({"promptTokens", "completionTokens", "totalTokens"})
    public record Usage(@Schema Integer promptTokens, @Schema Integer completionTokens, @Schema Integer totalTokens) {
        static Usage of(TokenUsage usage) {
            return new Usage(usage.promptTokens(), usage.completionTokens(), usage.totalTokens());
        }
    }

    /** What happened on the way to the answer; {@code model} and {@code finishReason} are null without a model call. */
    @Schema(name = "AskDiagnostics")
    @JsonbPropertyOrder({"noSource", "model", "passagesInContext", "removedCitations", "finishReason", "transforms", "retrieval"})
    public record AskDiagnostics(@Schema(description = "no passage passed the floor: the model was not called") boolean noSource,
                                 @Schema @JsonbNillable String model, @Schema int passagesInContext,
                                 @Schema(description = "citation markers naming no passage, removed") int removedCitations,
                                 @Schema @JsonbNillable String finishReason, @Schema List<Transform> transforms,
                                 @Schema @JsonbNillable Diagnostics retrieval) {}

    /** One query transform of the question (multi-query, hyde). */
    @Schema(name = "AskTransform")
    @JsonbPropertyOrder({"name", "fellBack", "queries", "reason"})
    public record Transform(@Schema String name, @Schema boolean fellBack, @Schema List<String> queries,
                            @Schema @JsonbNillable String reason) {}

    static AskResponse of(Answer answer) {
        Answer.Diagnostics d = answer.diagnostics();
        AskDiagnostics diagnostics = new AskDiagnostics(d.noSource(), d.model(), d.passagesInContext(), d.removedCitations(), d.finishReason(),
                d.transforms().stream().map(t -> new Transform(t.name(), t.fellBack(), t.queries(), t.reason())).toList(),
                d.retrieval() == null ? null : Diagnostics.of(d.retrieval()));
        return new AskResponse(answer.answer(), answer.citations().stream().map(Cited::of).toList(), Usage.of(answer.usage()), diagnostics);
    }
}
