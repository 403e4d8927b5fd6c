package io.corpora.server.api;

import io.corpora.answer.Answer;
import io.corpora.answer.AnswerCitation;
import io.corpora.spi.generate.TokenUsage;
import java.util.List;
import java.util.Map;

/**
 * An answer as {@code POST ask} returns it (and as the final {@code done} event of a stream carries it).
 *
 * @param answer      the text, citation markers checked
 * @param citations   only the cited passages, in order of first citation; {@code n} is the marker that cites it
 * @param usage       token counts the backend reported (fields null when it did not)
 * @param diagnostics noSource, model, passagesInContext, removedCitations, finishReason, transforms, retrieval
 */
public record AskResponse(String answer, List<AnswerCitation> citations, Usage usage, Map<String, Object> diagnostics) {

    /** Token counts. */
    public record Usage(Integer promptTokens, Integer completionTokens, Integer totalTokens) {
        static Usage of(TokenUsage usage) {
            return new Usage(usage.promptTokens(), usage.completionTokens(), usage.totalTokens());
        }
    }

    static AskResponse of(Answer answer) {
        Answer.Diagnostics d = answer.diagnostics();
        Map<String, Object> diagnostics = new java.util.LinkedHashMap<>();
        diagnostics.put("noSource", d.noSource());
        diagnostics.put("model", d.model());
        diagnostics.put("passagesInContext", d.passagesInContext());
        diagnostics.put("removedCitations", d.removedCitations());
        diagnostics.put("finishReason", d.finishReason());
        diagnostics.put("transforms", d.transforms().stream().map(t -> {
            Map<String, Object> report = new java.util.LinkedHashMap<>();
            report.put("name", t.name());
            report.put("fellBack", t.fellBack());
            report.put("queries", t.queries());
            report.put("reason", t.reason());
            return report;
        }).toList());
        diagnostics.put("retrieval", d.retrieval() == null ? null : io.corpora.server.api.model.Diagnostics.of(d.retrieval()));
        return new AskResponse(answer.answer(), answer.citations(), Usage.of(answer.usage()), diagnostics);
    }
}
