package io.corpora.spi.generate;

import java.util.Objects;

/**
 * One message of a chat: a role and its text. Immutable.
 *
 * @param content the text; may be empty, never null
 */
public record ChatMessage(ChatRole role, String content) {

    public ChatMessage {
        Objects.requireNonNull(role, "role");
        Objects.requireNonNull(content, "content");
    }

    public static ChatMessage system(String content) {
        return new ChatMessage(ChatRole.SYSTEM, content);
    }

    public static ChatMessage user(String content) {
        return new ChatMessage(ChatRole.USER, content);
    }

    public static ChatMessage assistant(String content) {
        return new ChatMessage(ChatRole.ASSISTANT, content);
    }
}
