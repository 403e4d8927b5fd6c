package io.corpora.onnx;

/** How a sentence vector is read from per-token hidden states {@code [1][tokens][hidden]}. */
public enum Pooling {
    /** The [CLS] token's state (bge). */
    CLS,
    /** The mean of the states of attended tokens (MiniLM, sentence-transformers). */
    MEAN;

    /** Pools row {@code row} of a rank-3 output whose first {@code tokens} positions are attended. */
    public float[] pool(OutputTensor states, int row, int tokens) {
        int hidden = states.dim(2);
        float[] out = new float[hidden];
        if (this == CLS) {
            for (int f = 0; f < hidden; f++) {
                out[f] = states.get(row, 0, f);
            }
            return out;
        }
        double[] sum = new double[hidden];
        for (int t = 0; t < tokens; t++) {
            for (int f = 0; f < hidden; f++) {
                sum[f] += states.get(row, t, f);
            }
        }
        for (int f = 0; f < hidden; f++) {
            out[f] = (float) (sum[f] / tokens);
        }
        return out;
    }
}
