package io.corpora.store.lucene;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * One upsert as the {@link Translog} keeps it: every chunk of the batch whole (id, document, index, clean text, index
 * text, heading path and metadata in the store's {@link StoredPayload} form, vector), so replaying it rebuilds exactly
 * the documents the upsert wrote. Versioned by a leading byte.
 */
final class UpsertRecord {

    private static final byte VERSION = 1;

    private UpsertRecord() {}

    static byte[] encode(Collection<EmbeddedChunk> chunks) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(chunks.size() * 2048);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(chunks.size());
            for (EmbeddedChunk embedded : chunks) {
                Chunk chunk = embedded.chunk();
                StoredPayload.writeString(out, chunk.id());
                StoredPayload.writeString(out, chunk.documentId());
                out.writeInt(chunk.index());
                StoredPayload.writeString(out, chunk.text());
                StoredPayload.writeString(out, embedded.indexText());
                byte[] payload = StoredPayload.encode(chunk.headingPath(), chunk.metadata());
                out.writeInt(payload.length);
                out.write(payload);
                float[] vector = embedded.hasEmbedding() ? embedded.embedding() : new float[0];
                out.writeInt(vector.length);
                for (float v : vector) {
                    out.writeFloat(v);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static List<EmbeddedChunk> decode(byte[] record) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(record))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalStateException("translog record has version " + version + "; this store reads version " + VERSION);
            }
            int count = in.readInt();
            List<EmbeddedChunk> chunks = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String id = StoredPayload.readString(in);
                String documentId = StoredPayload.readString(in);
                int index = in.readInt();
                String text = StoredPayload.readString(in);
                String indexText = StoredPayload.readString(in);
                byte[] payload = new byte[in.readInt()];
                in.readFully(payload);
                StoredPayload.Decoded decoded = StoredPayload.decode(payload, 0, payload.length);
                float[] vector = new float[in.readInt()];
                for (int d = 0; d < vector.length; d++) {
                    vector[d] = in.readFloat();
                }
                chunks.add(new EmbeddedChunk(new Chunk(id, documentId, index, text, decoded.headingPath(), decoded.metadata()), indexText,
                        vector.length == 0 ? null : vector));
            }
            return chunks;
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt translog record", e);
        }
    }
}
