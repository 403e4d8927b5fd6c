package io.corpora.spi;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;

/**
 * A document as submitted for ingest: either text, or bytes with a media type for a
 * {@link io.corpora.spi.loader.DocumentLoader} to read.
 */
public record Document(String id, String text, byte[] bytes, String mediaType, String source, Map<String, Object> metadata) {

    public Document {
        Identifiers.requireDocumentId(id);
        if ((text == null) == (bytes == null)) {
            throw new IllegalArgumentException("document '" + id + "' must have exactly one of text or bytes");
        }
        if (bytes != null) {
            if (mediaType == null || mediaType.isBlank()) {
                throw new IllegalArgumentException("document '" + id + "' has bytes but no media type");
            }
            bytes = bytes.clone();
        }
        mediaType = mediaType == null ? "text/plain" : mediaType.trim().toLowerCase(java.util.Locale.ROOT);
        source = source == null || source.isBlank() ? id : source;
        metadata = Metadata.copyOf(metadata);
    }

    public static Document ofText(String id, String text, String source, Map<String, ?> metadata) {
        return new Document(id, Objects.requireNonNull(text, "text"), null, "text/plain", source, Metadata.copyOf(metadata));
    }

    public static Document ofBytes(String id, byte[] bytes, String mediaType, String source, Map<String, ?> metadata) {
        return new Document(id, null, Objects.requireNonNull(bytes, "bytes"), mediaType, source, Metadata.copyOf(metadata));
    }

    public boolean hasText() {
        return text != null;
    }

    /** A defensive copy of the raw bytes (UTF-8 of the text for text documents). */
    @Override
    public byte[] bytes() {
        return bytes == null ? text.getBytes(StandardCharsets.UTF_8) : bytes.clone();
    }

    public long sizeBytes() {
        return bytes == null ? text.getBytes(StandardCharsets.UTF_8).length : bytes.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Document d && id.equals(d.id) && Objects.equals(text, d.text) && Arrays.equals(bytes, d.bytes)
                && mediaType.equals(d.mediaType) && source.equals(d.source) && metadata.equals(d.metadata);
    }

    @Override
    public int hashCode() {
        return Objects.hash(id, text, Arrays.hashCode(bytes), mediaType, source, metadata);
    }

    @Override
    public String toString() {
        return "Document[id=" + id + ", mediaType=" + mediaType + ", source=" + source + ", bytes=" + sizeBytes() + "]";
    }
}
