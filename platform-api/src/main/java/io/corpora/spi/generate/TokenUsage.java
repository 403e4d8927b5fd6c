package io.corpora.spi.generate;

/**
 * The tokens one generation consumed, as the backend reported them; each count is null when it did not. When
 * the prompt and completion counts are known but the total is not, the total is their sum (when it fits an int).
 *
 * @param promptTokens     tokens read: the messages, as the backend's tokenizer counts them
 * @param completionTokens tokens generated
 * @param totalTokens      both together (what most backends bill)
 */
public record TokenUsage(Integer promptTokens, Integer completionTokens, Integer totalTokens) {

    /** Nothing was reported. */
    public static final TokenUsage UNKNOWN = new TokenUsage(null, null, null);

    public TokenUsage {
        notNegative("promptTokens", promptTokens);
        notNegative("completionTokens", completionTokens);
        notNegative("totalTokens", totalTokens);
        if (totalTokens == null && promptTokens != null && completionTokens != null
                && (long) promptTokens + completionTokens <= Integer.MAX_VALUE) {
            totalTokens = promptTokens + completionTokens;
        }
    }

    /** Whether the backend reported any count. */
    public boolean isKnown() {
        return promptTokens != null || completionTokens != null || totalTokens != null;
    }

    private static void notNegative(String name, Integer value) {
        if (value != null && value < 0) {
            throw new IllegalArgumentException(name + " must not be negative, got " + value);
        }
    }
}
