package io.corpora.spi;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Validation and immutable copies of metadata maps.
 *
 * <p>Values are scalars ({@link String}, {@link Number}, {@link Boolean}) or lists of scalars
 * (a multi-valued field). Nested maps are refused: filters could not address them uniformly in every store.
 */
public final class Metadata {

    public static final int MAX_KEYS = 128;
    public static final int MAX_LIST_SIZE = 1024;
    public static final int MAX_STRING_LENGTH = 8192;

    private Metadata() {}

    /** An unmodifiable, validated, insertion-ordered copy; null becomes an empty map. */
    public static Map<String, Object> copyOf(Map<String, ?> metadata) {
        if (metadata == null || metadata.isEmpty()) {
            return Map.of();
        }
        if (metadata.size() > MAX_KEYS) {
            throw new IllegalArgumentException("metadata has " + metadata.size() + " keys; at most " + MAX_KEYS + " allowed");
        }
        Map<String, Object> copy = new LinkedHashMap<>();
        for (Map.Entry<String, ?> entry : metadata.entrySet()) {
            String key = Identifiers.requireMetadataKey(entry.getKey());
            copy.put(key, copyValue(key, entry.getValue()));
        }
        return Collections.unmodifiableMap(copy);
    }

    /** The same map without reserved ({@code _}-prefixed) keys. */
    public static Map<String, Object> withoutReserved(Map<String, ?> metadata) {
        Map<String, Object> copy = new LinkedHashMap<>();
        if (metadata != null) {
            metadata.forEach((k, v) -> {
                if (!ReservedKeys.isReserved(k)) {
                    copy.put(k, v);
                }
            });
        }
        return copyOf(copy);
    }

    private static Object copyValue(String key, Object value) {
        if (value instanceof List<?> list) {
            if (list.size() > MAX_LIST_SIZE) {
                throw new IllegalArgumentException("metadata '" + key + "' has " + list.size() + " values; at most " + MAX_LIST_SIZE);
            }
            List<Object> items = new ArrayList<>(list.size());
            for (Object item : list) {
                items.add(copyScalar(key, item));
            }
            return List.copyOf(items);
        }
        return copyScalar(key, value);
    }

    private static Object copyScalar(String key, Object value) {
        if (value instanceof String s) {
            if (s.length() > MAX_STRING_LENGTH) {
                throw new IllegalArgumentException("metadata '" + key + "' is longer than " + MAX_STRING_LENGTH + " characters");
            }
            return s;
        }
        if (value instanceof Double d && !Double.isFinite(d) || value instanceof Float f && !Float.isFinite(f)) {
            throw new IllegalArgumentException("metadata '" + key + "' must be a finite number");
        }
        if (value instanceof Number || value instanceof Boolean) {
            return value;
        }
        throw new IllegalArgumentException("metadata '" + key + "' must be a string, number, boolean or a list of those, got "
                + (value == null ? "null" : value.getClass().getSimpleName()));
    }
}
