package io.corpora.spi.generate;

/** Why the model stopped, in the backend-neutral terms a caller acts on. */
public enum FinishReason {
    /** The model ended its answer, or produced a stop sequence. */
    STOP,
    /** The token limit (the request's, or the model's context window) cut the answer off. */
    LENGTH,
    /** The backend's content filter withheld or cut the answer. */
    CONTENT_FILTER,
    /** The backend named another reason (e.g. a tool call). */
    OTHER
}
