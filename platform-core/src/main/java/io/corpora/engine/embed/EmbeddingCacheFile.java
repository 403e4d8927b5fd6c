package io.corpora.engine.embed;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.logging.Logger;
import java.util.zip.CRC32C;

/**
 * One generation file of a {@link DiskEmbeddingCache}: its header, its fixed-size checksummed records, and the
 * in-memory index from key prefixes to record numbers.
 */
final class EmbeddingCacheFile {

    private static final Logger LOG = Logger.getLogger(EmbeddingCacheFile.class.getName());

    final Path path;
    final int number;
    private final int dimension;
    private final int recordBytes;
    private final FileChannel channel;
    private final KeyPrefixIndex index = new KeyPrefixIndex();
    int records;

    private EmbeddingCacheFile(Path path, int number, int dimension, int recordBytes, FileChannel channel) {
        this.path = path;
        this.number = number;
        this.dimension = dimension;
        this.recordBytes = recordBytes;
        this.channel = channel;
    }

    static EmbeddingCacheFile open(Path path, int number, int dimension, int recordBytes) throws IOException {
        FileChannel channel = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ, StandardOpenOption.WRITE);
        EmbeddingCacheFile generation = new EmbeddingCacheFile(path, number, dimension, recordBytes, channel);
        try {
            generation.load();
        } catch (IOException | RuntimeException e) {
            channel.close();
            throw e;
        }
        return generation;
    }

    /** Reads the header (writing it into a new file, starting over on a foreign one) and indexes every sound record. */
    private void load() throws IOException {
        long size = channel.size();
        if (size < DiskEmbeddingCache.HEADER_BYTES || !headerMatches()) {
            if (size > 0) {
                LOG.warning(path + " is not an embedding cache of " + dimension + " dimensions in format " + DiskEmbeddingCache.FORMAT + "; starting it over");
            }
            channel.truncate(0);
            ByteBuffer header = ByteBuffer.allocate(DiskEmbeddingCache.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(DiskEmbeddingCache.MAGIC).putInt(DiskEmbeddingCache.FORMAT).putInt(dimension).putInt(0).flip();
            writeFully(header, 0);
            return;
        }
        long whole = (size - DiskEmbeddingCache.HEADER_BYTES) / recordBytes;
        if (DiskEmbeddingCache.HEADER_BYTES + whole * recordBytes != size) {
            channel.truncate(DiskEmbeddingCache.HEADER_BYTES + whole * recordBytes); // a torn last record: appends must stay aligned
        }
        int batch = Math.max(1, (1 << 20) / recordBytes);
        ByteBuffer buffer = ByteBuffer.allocate(batch * recordBytes).order(ByteOrder.LITTLE_ENDIAN);
        int corrupt = 0;
        for (long first = 0; first < whole; first += batch) {
            int count = (int) Math.min(batch, whole - first);
            buffer.clear().limit(count * recordBytes);
            readFully(buffer, DiskEmbeddingCache.HEADER_BYTES + first * recordBytes);
            for (int r = 0; r < count; r++) {
                if (sound(buffer, r * recordBytes)) {
                    index.put(buffer.getLong(r * recordBytes), (int) (first + r));
                } else {
                    corrupt++;
                }
            }
        }
        records = (int) whole;
        if (corrupt > 0) {
            LOG.warning(path + ": " + corrupt + " of " + whole + " records fail their checksum and are ignored");
        }
    }

    private boolean headerMatches() throws IOException {
        ByteBuffer header = ByteBuffer.allocate(DiskEmbeddingCache.HEADER_BYTES).order(ByteOrder.LITTLE_ENDIAN);
        readFully(header, 0);
        return header.getInt(0) == DiskEmbeddingCache.MAGIC && header.getInt(4) == DiskEmbeddingCache.FORMAT && header.getInt(8) == dimension;
    }

    /** Whether the record at {@code offset} of {@code buffer} matches its checksum. */
    private boolean sound(ByteBuffer buffer, int offset) {
        CRC32C crc = new CRC32C();
        int payload = recordBytes - Integer.BYTES;
        crc.update(buffer.slice(offset, payload));
        return (int) crc.getValue() == buffer.getInt(offset + payload);
    }

    float[] find(byte[] key) throws IOException {
        long prefix = ByteBuffer.wrap(key).order(ByteOrder.LITTLE_ENDIAN).getLong();
        ByteBuffer record = ByteBuffer.allocate(recordBytes).order(ByteOrder.LITTLE_ENDIAN);
        for (int candidate : index.candidates(prefix)) {
            record.clear();
            if (readFully(record, DiskEmbeddingCache.HEADER_BYTES + (long) candidate * recordBytes) < recordBytes) {
                continue; // cut off by another writer's truncation: cannot happen with the lock, but never trust it
            }
            if (Arrays.equals(record.array(), 0, DiskEmbeddingCache.KEY_BYTES, key, 0, DiskEmbeddingCache.KEY_BYTES) && sound(record, 0)) {
                float[] vector = new float[dimension];
                record.position(DiskEmbeddingCache.KEY_BYTES);
                record.asFloatBuffer().get(vector);
                return vector;
            }
        }
        return null;
    }

    void append(byte[] key, float[] vector) throws IOException {
        ByteBuffer record = ByteBuffer.allocate(recordBytes).order(ByteOrder.LITTLE_ENDIAN);
        record.put(key);
        for (float value : vector) {
            record.putFloat(value); // the raw bits: a NaN's payload too
        }
        CRC32C crc = new CRC32C();
        crc.update(record.array(), 0, recordBytes - Integer.BYTES);
        record.putInt((int) crc.getValue()).flip();
        writeFully(record, bytes());
        index.put(record.getLong(0), records);
        records++;
    }

    long bytes() {
        return DiskEmbeddingCache.HEADER_BYTES + (long) records * recordBytes;
    }

    private int readFully(ByteBuffer buffer, long position) throws IOException {
        int read = 0;
        while (buffer.hasRemaining()) {
            int n = channel.read(buffer, position + read);
            if (n < 0) {
                break;
            }
            read += n;
        }
        buffer.flip();
        return read;
    }

    private void writeFully(ByteBuffer buffer, long position) throws IOException {
        long at = position;
        while (buffer.hasRemaining()) {
            at += channel.write(buffer, at);
        }
    }

    void close() throws IOException {
        channel.close();
    }
}
