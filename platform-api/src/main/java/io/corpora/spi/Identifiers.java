package io.corpora.spi;

import java.util.regex.Pattern;

/** Validation of the identifiers that cross the SPI (tenants, partitions, document ids, keys). */
public final class Identifiers {

    /** Tenant and partition ids: lower-case, safe in paths, URLs, SQL identifiers' suffixes and file names. */
    public static final Pattern NAMESPACE_ID = Pattern.compile("[a-z0-9](?:[a-z0-9_-]{0,62})");

    /** Document ids: printable, no control characters, bounded. Stores must still bind them as values. */
    public static final int MAX_DOCUMENT_ID_LENGTH = 512;

    /** Metadata keys: a conservative charset so no store ever needs to quote or escape a key. */
    public static final Pattern METADATA_KEY = Pattern.compile("[A-Za-z_][A-Za-z0-9_.-]{0,127}");

    private Identifiers() {}

    public static String requireNamespaceId(String kind, String value) {
        if (value == null || !NAMESPACE_ID.matcher(value).matches()) {
            throw new IllegalArgumentException(kind + " id must match " + NAMESPACE_ID.pattern() + ", got: " + quote(value));
        }
        return value;
    }

    public static String requireDocumentId(String value) {
        if (value == null || value.isBlank()) {
            throw new IllegalArgumentException("document id must not be blank");
        }
        if (value.length() > MAX_DOCUMENT_ID_LENGTH) {
            throw new IllegalArgumentException("document id longer than " + MAX_DOCUMENT_ID_LENGTH + " characters");
        }
        for (int i = 0; i < value.length(); i++) {
            if (Character.isISOControl(value.charAt(i))) {
                throw new IllegalArgumentException("document id contains a control character at index " + i);
            }
        }
        return value;
    }

    public static String requireMetadataKey(String key) {
        if (key == null || !isMetadataKey(key)) {
            throw new IllegalArgumentException("metadata key must match " + METADATA_KEY.pattern() + ", got: " + quote(key));
        }
        return key;
    }

    /**
     * {@link #METADATA_KEY}, hand-matched: every chunk a store returns re-checks its keys, and the regex cost a retrieval
     * of ten passages several microseconds.
     */
    static boolean isMetadataKey(String key) {
        int length = key.length();
        if (length == 0 || length > 128) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            char c = key.charAt(i);
            boolean first = (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
            if (!first && (i == 0 || !((c >= '0' && c <= '9') || c == '.' || c == '-'))) {
                return false;
            }
        }
        return true;
    }

    static String quote(String value) {
        if (value == null) {
            return "null";
        }
        String shown = value.length() > 80 ? value.substring(0, 80) + "…" : value;
        return '"' + shown.replace("\"", "\\\"") + '"';
    }
}
