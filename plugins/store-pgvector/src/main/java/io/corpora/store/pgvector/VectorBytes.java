package io.corpora.store.pgvector;

import java.nio.ByteBuffer;

/**
 * A stored vector fetched as pgvector's binary form ({@code vector_send}: int16 width, int16 unused, then big-endian float32s)
 * rather than as text: the same floats bit for bit, without formatting 384 decimals per row in the server and parsing
 * them in Java, which cost more than the search itself on a small tenant.
 */
final class VectorBytes {

    private VectorBytes() {}

    /** The select-list expression of the column's binary form. */
    static String select(String column) {
        return "vector_send(" + column + ")";
    }

    /** The floats of a {@link #select} value; null for a NULL column. */
    static float[] decode(byte[] bytes) {
        if (bytes == null) {
            return null;
        }
        ByteBuffer buffer = ByteBuffer.wrap(bytes);
        int width = Short.toUnsignedInt(buffer.getShort());
        buffer.getShort();
        float[] vector = new float[width];
        buffer.asFloatBuffer().get(vector);
        return vector;
    }
}
