package io.corpora.ingest;

import io.corpora.spi.Identifiers;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * One document to ingest, as the caller gave it.
 *
 * @param documentId the caller's id
 * @param content    the raw bytes (UTF-8 of the text for JSON submissions)
 * @param mediaType  lower-case, without parameters
 * @param charset    a declared charset, or null
 * @param fileName   the uploaded file's base name, for messages only (never used as a path)
 * @param format     an explicit format for text submissions ({@code text}, {@code markdown}, …), or null
 * @param metadata   caller metadata; reserved keys are dropped before anything is stored
 */
public record IngestRequest(String documentId, String source, byte[] content, String mediaType, String charset, String fileName,
                            Map<String, Object> metadata) {

    public IngestRequest {
        Identifiers.requireDocumentId(documentId);
        Objects.requireNonNull(content, "content");
        mediaType = mediaType == null || mediaType.isBlank() ? "application/octet-stream" : mediaType.trim().toLowerCase(Locale.ROOT);
        source = source == null || source.isBlank() ? documentId : source;
        fileName = fileName == null ? documentId : safeFileName(fileName);
        metadata = metadata == null ? Map.of() : Map.copyOf(metadata);
    }

    public static IngestRequest ofText(String documentId, String text, String mediaType, String source, Map<String, Object> metadata) {
        return new IngestRequest(documentId, source, text.getBytes(StandardCharsets.UTF_8), mediaType, "utf-8", null, metadata);
    }

    /** The last path segment only, so "../../etc/passwd" is just "passwd" in messages. */
    static String safeFileName(String name) {
        String base = name.replace('\\', '/');
        base = base.substring(base.lastIndexOf('/') + 1);
        base = base.replaceAll("[\\p{Cntrl}]", "");
        return base.isBlank() ? "document" : (base.length() > 200 ? base.substring(0, 200) : base);
    }
}
