package io.corpora.onnx;

import java.util.Objects;

/**
 * What a bi-encoder (sentence embedding) model needs besides its bytes.
 *
 * @param name               the model name used in fingerprints, e.g. {@code bge-small-en-v1.5-q}
 * @param maxSequenceTokens  the model's position limit including [CLS] and [SEP] (512 for BERT)
 * @param pooling            how the sentence vector is read from token states
 * @param queryInstruction   prefix the model card prescribes for retrieval queries ("" for none)
 */
public record BiEncoderSpec(String name, int maxSequenceTokens, Pooling pooling, String queryInstruction) {

    public BiEncoderSpec {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(pooling, "pooling");
        queryInstruction = queryInstruction == null ? "" : queryInstruction;
        if (maxSequenceTokens < 3) {
            throw new IllegalArgumentException("maxSequenceTokens must leave room for [CLS] and [SEP], got " + maxSequenceTokens);
        }
    }

    /** Tokens of text the model reads, after [CLS] and [SEP]. */
    public int maxContentTokens() {
        return maxSequenceTokens - 2;
    }

    public BiEncoderSpec withQueryInstruction(String instruction) {
        return new BiEncoderSpec(name, maxSequenceTokens, pooling, instruction);
    }
}
