package io.corpora.spi.generate;

import java.util.List;
import java.util.Objects;

/**
 * What to generate from: the chat so far and optional generation parameters. A parameter left null (or {@code stop}
 * left empty) means the generator's configured default, or else the backend's. Immutable; the constructor refuses
 * values no backend accepts with an {@link IllegalArgumentException}.
 *
 * @param messages    the chat, oldest first; at least one
 * @param maxTokens   the most tokens to generate, at least 1; null for the default
 * @param temperature sampling temperature, finite and at least 0 (backends bound it further, OpenAI at 2); null for the default
 * @param stop        sequences that end the generation when produced (not included in the text); empty for none
 */
public record GenerationRequest(List<ChatMessage> messages, Integer maxTokens, Double temperature, List<String> stop) {

    public GenerationRequest {
        Objects.requireNonNull(messages, "messages");
        if (messages.isEmpty()) {
            throw new IllegalArgumentException("a generation request needs at least one message");
        }
        messages = List.copyOf(messages);
        if (maxTokens != null && maxTokens < 1) {
            throw new IllegalArgumentException("maxTokens must be at least 1, got " + maxTokens);
        }
        if (temperature != null && !(Double.isFinite(temperature) && temperature >= 0)) {
            throw new IllegalArgumentException("temperature must be a finite number of at least 0, got " + temperature);
        }
        stop = stop == null ? List.of() : List.copyOf(stop);
        if (stop.stream().anyMatch(String::isEmpty)) {
            throw new IllegalArgumentException("a stop sequence must not be empty");
        }
    }

    /** A request with the generator's default parameters. */
    public static GenerationRequest of(List<ChatMessage> messages) {
        return new GenerationRequest(messages, null, null, List.of());
    }

    public static GenerationRequest of(ChatMessage... messages) {
        return of(List.of(messages));
    }

    public GenerationRequest withMaxTokens(Integer value) {
        return new GenerationRequest(messages, value, temperature, stop);
    }

    public GenerationRequest withTemperature(Double value) {
        return new GenerationRequest(messages, maxTokens, value, stop);
    }

    public GenerationRequest withStop(List<String> value) {
        return new GenerationRequest(messages, maxTokens, temperature, value);
    }
}
