package io.corpora.spi.embed;

/** Counts model tokens, so chunkers can size chunks to what the model really reads. */
@FunctionalInterface
public interface TokenCounter {
    /** Tokens the model sees for this text, excluding special tokens such as [CLS] and [SEP]. */
    int countTokens(String text);
}
