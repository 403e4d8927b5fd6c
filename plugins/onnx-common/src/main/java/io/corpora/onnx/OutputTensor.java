package io.corpora.onnx;

import java.util.Arrays;

/** One float output of a model run, copied out of native memory: its shape and its values in row-major order. */
public record OutputTensor(String name, long[] shape, float[] values) {

    public int rank() {
        return shape.length;
    }

    public int dim(int axis) {
        return Math.toIntExact(shape[axis]);
    }

    /** The value at {@code [row][column]} of a rank-2 tensor. */
    public float get(int row, int column) {
        requireRank(2);
        return values[row * dim(1) + column];
    }

    /** The value at {@code [batch][token][feature]} of a rank-3 tensor. */
    public float get(int batch, int token, int feature) {
        requireRank(3);
        return values[(batch * dim(1) + token) * dim(2) + feature];
    }

    private void requireRank(int expected) {
        if (rank() != expected) {
            throw new IllegalStateException("output '" + name + "' has shape " + Arrays.toString(shape) + ", not rank " + expected);
        }
    }
}
