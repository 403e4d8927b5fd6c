package io.corpora.spi.generate;

/**
 * Who speaks a {@link ChatMessage}: the chat-completions roles every backend understands. No plugin names the type
 * (the OpenAI generator only reads {@code message.role()}), but it is the type of {@link ChatMessage#role()}, so it is
 * part of the generation contract.
 */
public enum ChatRole {
    /** Instructions that frame the conversation (the prompt template, the rules for citing). */
    SYSTEM,
    /** The end user's turn, or data handed to the model on the user's behalf. */
    USER,
    /** An earlier answer of the model. */
    ASSISTANT
}
