package io.corpora.ingest;

import io.corpora.engine.CallerText;
import io.corpora.spi.Identifiers;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A document's metadata as the server accepts it from a caller, and what it costs: it is copied onto every chunk, so it
 * is bounded by key count and size ({@link IngestLimits#maxMetadataKeys()}, {@link IngestLimits#maxMetadataBytes()}),
 * and charged to the tenant's {@code maxBytes} quota once per chunk. Its size is its length as compact JSON in UTF-8.
 */
public final class DocumentMetadata {

    private DocumentMetadata() {}

    /**
     * An unmodifiable, insertion-ordered copy of a caller's metadata; null is empty. A null value (or list item) is
     * refused — omit the key instead — as are invalid keys and text no store can hold ({@link CallerText}).
     */
    public static Map<String, Object> fromCaller(Map<String, ?> metadata) {
        if (metadata == null || metadata.isEmpty()) {
            return Map.of();
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<String, ?> entry : metadata.entrySet()) {
            String key = Identifiers.requireMetadataKey(entry.getKey());
            Object value = entry.getValue();
            if (value instanceof List<?> list) {
                List<Object> items = new ArrayList<>(list.size());
                for (Object item : list) {
                    items.add(checked(key, item));
                }
                value = Collections.unmodifiableList(items);
            } else {
                value = checked(key, value);
            }
            copy.put(key, value);
        }
        return Collections.unmodifiableMap(copy);
    }

    private static Object checked(String key, Object value) {
        if (value == null) {
            throw new IllegalArgumentException("metadata '" + key + "' is null; omit the key instead");
        }
        if (value instanceof String s) {
            CallerText.require("metadata '" + key + "'", s);
        }
        return value;
    }

    /**
     * Refuses (400 {@code metadata-too-large}) metadata over the limits.
     *
     * @param whose names it in the message, e.g. "document 'a.md' has metadata"
     */
    public static void requireWithin(Map<String, ?> metadata, IngestLimits limits, String whose) {
        if (metadata.size() > limits.maxMetadataKeys()) {
            throw new IngestException(400, "metadata-too-large", whose + " of " + metadata.size() + " keys; at most "
                    + limits.maxMetadataKeys() + " are accepted (corpora.ingest.maxMetadataKeys): metadata is copied onto every chunk");
        }
        long bytes = jsonBytes(metadata);
        if (bytes > limits.maxMetadataBytes()) {
            throw new IngestException(400, "metadata-too-large", whose + " of " + bytes + " bytes as JSON; at most "
                    + limits.maxMetadataBytes() + " are accepted (corpora.ingest.maxMetadataBytes): metadata is copied onto every chunk");
        }
    }

    /** The length in bytes of the metadata as compact JSON in UTF-8 ({@code {"key":"value",…}}). */
    public static long jsonBytes(Map<String, ?> metadata) {
        long bytes = 2 + Math.max(0, metadata.size() - 1); // braces and commas
        for (Map.Entry<String, ?> entry : metadata.entrySet()) {
            bytes += stringBytes(entry.getKey()) + 1 + valueBytes(entry.getValue());
        }
        return bytes;
    }

    private static long valueBytes(Object value) {
        if (value instanceof List<?> list) {
            long bytes = 2 + Math.max(0, list.size() - 1);
            for (Object item : list) {
                bytes += valueBytes(item);
            }
            return bytes;
        }
        return value instanceof String s ? stringBytes(s) : String.valueOf(value).length();
    }

    /** A JSON string literal's UTF-8 length: quotes, escapes for quote, backslash and control characters. */
    private static long stringBytes(String s) {
        long bytes = 2;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\' || c == '\n' || c == '\r' || c == '\t' || c == '\b' || c == '\f') {
                bytes += 2;
            } else if (c < 0x20) {
                bytes += 6;
            } else if (c < 0x80) {
                bytes += 1;
            } else if (c < 0x800) {
                bytes += 2;
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                bytes += 4;
                i++;
            } else {
                bytes += 3;
            }
        }
        return bytes;
    }
}
