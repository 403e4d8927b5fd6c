package io.corpora.onnx;

import io.corpora.spi.InvalidInputException;

/** Input that exceeds a model's token limit while truncation is {@link Truncation#ERROR}: the caller's to fix. */
public class InputTooLongException extends InvalidInputException {

    private static final long serialVersionUID = 1L;

    private final int tokens;
    private final int limit;

    public InputTooLongException(String model, int tokens, int limit) {
        super("input of " + tokens + " tokens exceeds the " + limit + "-token limit of model " + model
                + " (excluding [CLS]/[SEP]); chunk it with the embedder's token counter, or set truncation=warn");
        this.tokens = tokens;
        this.limit = limit;
    }

    public int tokens() {
        return tokens;
    }

    public int limit() {
        return limit;
    }
}
