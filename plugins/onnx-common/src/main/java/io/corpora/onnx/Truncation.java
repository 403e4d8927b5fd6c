package io.corpora.onnx;

/** What to do with input longer than the model reads. Never silent: either an error or a logged warning. */
public enum Truncation {
    /** Refuse the input with {@link InputTooLongException}. */
    ERROR,
    /** Keep the first tokens the model can read and log a warning naming the counts. */
    WARN;

    public static Truncation parse(String value) {
        return switch (value.trim().toLowerCase(java.util.Locale.ROOT)) {
            case "error" -> ERROR;
            case "warn" -> WARN;
            default -> throw new IllegalArgumentException("truncation must be 'error' or 'warn', got '" + value + "'");
        };
    }
}
