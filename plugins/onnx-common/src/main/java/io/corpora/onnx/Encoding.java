package io.corpora.onnx;

/**
 * Model input for one sequence: token ids with their special tokens, the attention mask and the segment
 * (token type) ids, all of the same length.
 */
public record Encoding(long[] inputIds, long[] attentionMask, long[] tokenTypeIds) {

    public Encoding {
        if (inputIds.length != attentionMask.length || inputIds.length != tokenTypeIds.length) {
            throw new IllegalArgumentException("encoding arrays differ in length");
        }
    }

    public int length() {
        return inputIds.length;
    }
}
