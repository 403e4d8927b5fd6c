package io.corpora.engine.retriever;

/**
 * A candidate passage that was found but not returned, and why.
 *
 * @param passageId the passage
 * @param reason    below the score floor, or over the character budget
 * @param score     its score when refused
 * @param chars     its length in characters
 * @param charsUsed the budget already spent on better-ranked passages when it was refused (0 for a floor refusal)
 */
public record Refusal(String passageId, Reason reason, double score, int chars, int charsUsed) {

    public enum Reason { BELOW_FLOOR, OVER_BUDGET }
}
