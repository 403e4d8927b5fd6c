package io.corpora.spi.generate;

import java.util.Objects;

/**
 * A finished generation. Immutable.
 *
 * @param text         the generated text (for a stream: every delta, concatenated in order); may be empty
 * @param model        the model that answered, as the backend named it (often more precise than
 *                     {@link Generator#modelId()}, e.g. a dated snapshot), or the generator's model id when it named none
 * @param usage        token counts, {@link TokenUsage#UNKNOWN} when the backend reported none
 * @param finishReason why the model stopped; null when the backend did not say
 */
public record Generation(String text, String model, TokenUsage usage, FinishReason finishReason) {

    public Generation {
        Objects.requireNonNull(text, "text");
        Objects.requireNonNull(model, "model");
        if (model.isBlank()) {
            throw new IllegalArgumentException("model must not be blank");
        }
        usage = usage == null ? TokenUsage.UNKNOWN : usage;
    }

    /** Whether a token limit cut the text off ({@link FinishReason#LENGTH}). */
    public boolean truncated() {
        return finishReason == FinishReason.LENGTH;
    }
}
