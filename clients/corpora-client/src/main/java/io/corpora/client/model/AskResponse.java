package io.corpora.client.model;

import java.util.List;

/**
 * A grounded answer: what {@code ask} returns, and what the {@code done} event of a streamed ask carries.
 *
 * @param answer      the model's text, its {@code [n]} markers checked by the server (markers naming no passage removed);
 *                    or the tenant's "I don't know" sentence when no passage was found ({@code diagnostics.noSource})
 * @param citations   only the passages the answer cites, in the order it first cites them
 * @param usage       token counts the generator reported (fields null when it did not, or when no model was called)
 * @param diagnostics how the answer came about, the retrieval's diagnostics included
 */
public record AskResponse(String answer, List<AnswerCitation> citations, AskUsage usage, AskDiagnostics diagnostics) {

    /** The citation with marker {@code n}, if the answer cites it. */
    public java.util.Optional<AnswerCitation> citation(int n) {
        return citations.stream().filter(c -> c.n() == n).findFirst();
    }
}
