package io.corpora.store.lucene;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The binary stored form of a chunk's heading path and metadata. Every value keeps its Java type (Integer stays
 * Integer, Long stays Long), so a chunk read back equals the chunk written. Versioned by a leading byte.
 */
final class StoredPayload {

    private static final byte VERSION = 1;

    /** A decoded payload. */
    record Decoded(List<String> headingPath, Map<String, Object> metadata) {}

    private StoredPayload() {}

    static byte[] encode(List<String> headingPath, Map<String, Object> metadata) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(128);
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            out.writeByte(VERSION);
            out.writeInt(headingPath.size());
            for (String heading : headingPath) {
                writeString(out, heading);
            }
            out.writeInt(metadata.size());
            for (Map.Entry<String, Object> entry : metadata.entrySet()) {
                writeString(out, entry.getKey());
                writeValue(out, entry.getValue());
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return bytes.toByteArray();
    }

    static Decoded decode(byte[] payload, int offset, int length) {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(payload, offset, length))) {
            byte version = in.readByte();
            if (version != VERSION) {
                throw new IllegalStateException("stored chunk payload has version " + version + "; this store reads version " + VERSION);
            }
            int headings = in.readInt();
            List<String> headingPath = new ArrayList<>(headings);
            for (int i = 0; i < headings; i++) {
                headingPath.add(readString(in));
            }
            int keys = in.readInt();
            Map<String, Object> metadata = new LinkedHashMap<>();
            for (int i = 0; i < keys; i++) {
                String key = readString(in);
                metadata.put(key, readValue(in));
            }
            return new Decoded(headingPath, metadata);
        } catch (IOException e) {
            throw new UncheckedIOException("corrupt stored chunk payload", e);
        }
    }

    private static void writeValue(DataOutputStream out, Object value) throws IOException {
        if (value instanceof List<?> list) {
            out.writeByte('L');
            out.writeInt(list.size());
            for (Object item : list) {
                writeValue(out, item);
            }
        } else if (value instanceof String s) {
            out.writeByte('S');
            writeString(out, s);
        } else if (value instanceof Boolean b) {
            out.writeByte('Z');
            out.writeBoolean(b);
        } else if (value instanceof Integer i) {
            out.writeByte('I');
            out.writeInt(i);
        } else if (value instanceof Long l) {
            out.writeByte('J');
            out.writeLong(l);
        } else if (value instanceof Double d) {
            out.writeByte('D');
            out.writeDouble(d);
        } else if (value instanceof Float f) {
            out.writeByte('F');
            out.writeFloat(f);
        } else if (value instanceof Short s) {
            out.writeByte('H');
            out.writeShort(s);
        } else if (value instanceof Byte b) {
            out.writeByte('Y');
            out.writeByte(b);
        } else if (value instanceof BigInteger b) {
            out.writeByte('G');
            writeString(out, b.toString());
        } else if (value instanceof Number n) {
            out.writeByte('N'); // BigDecimal and any other Number, exactly as its decimal string
            writeString(out, new BigDecimal(n.toString()).toString());
        } else {
            throw new IllegalArgumentException("cannot store metadata value of type " + (value == null ? "null" : value.getClass().getName()));
        }
    }

    private static Object readValue(DataInputStream in) throws IOException {
        byte tag = in.readByte();
        return switch (tag) {
            case 'L' -> {
                int size = in.readInt();
                List<Object> items = new ArrayList<>(size);
                for (int i = 0; i < size; i++) {
                    items.add(readValue(in));
                }
                yield List.copyOf(items);
            }
            case 'S' -> readString(in);
            case 'Z' -> in.readBoolean();
            case 'I' -> in.readInt();
            case 'J' -> in.readLong();
            case 'D' -> in.readDouble();
            case 'F' -> in.readFloat();
            case 'H' -> in.readShort();
            case 'Y' -> in.readByte();
            case 'G' -> new BigInteger(readString(in));
            case 'N' -> new BigDecimal(readString(in));
            default -> throw new IOException("unknown value tag " + tag);
        };
    }

    /** A string as its UTF-8 length and bytes (also the translog's form, {@link UpsertRecord}). */
    static void writeString(DataOutputStream out, String s) throws IOException {
        byte[] utf8 = s.getBytes(StandardCharsets.UTF_8);
        out.writeInt(utf8.length);
        out.write(utf8);
    }

    static String readString(DataInputStream in) throws IOException {
        byte[] utf8 = new byte[in.readInt()];
        in.readFully(utf8);
        return new String(utf8, StandardCharsets.UTF_8);
    }
}
