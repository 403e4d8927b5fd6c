package io.corpora.engine.chunk;

/** A token counter for tests: one token per whitespace-separated word (a model tokenizer counts more, never fewer). */
final class WhitespaceTokens {

    private WhitespaceTokens() {}

    static int count(String text) {
        String stripped = text.strip();
        return stripped.isEmpty() ? 0 : stripped.split("\\s+").length;
    }
}
