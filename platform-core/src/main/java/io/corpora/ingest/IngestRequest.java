package io.corpora.ingest;

import io.corpora.engine.CallerText;
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
 * @param source     where it came from, for citations (the id when blank); at most {@value #MAX_SOURCE_LENGTH} characters
 * @param metadata   caller metadata ({@link DocumentMetadata#fromCaller}); reserved keys are dropped before anything is stored
 * @throws IllegalArgumentException for what the caller must fix (a 400): an invalid id, an over-long source or media
 *                                  type, a null metadata value, text no store can hold
 */
public record IngestRequest(String documentId, String source, byte[] content, String mediaType, String charset, String fileName,
                            Map<String, Object> metadata) {

    /**
     * The registry's {@code documents.source} column is {@code VARCHAR(2048)}, counted in UTF-16 units (H2 counts them;
     * PostgreSQL counts code points, of which there are never more).
     */
    public static final int MAX_SOURCE_LENGTH = 2048;
    /** The registry's {@code documents.media_type} column is {@code VARCHAR(200)}. */
    public static final int MAX_MEDIA_TYPE_LENGTH = 200;

    public IngestRequest {
        Identifiers.requireDocumentId(documentId);
        Objects.requireNonNull(content, "content");
        mediaType = mediaType == null || mediaType.isBlank() ? "application/octet-stream" : mediaType.trim().toLowerCase(Locale.ROOT);
        if (mediaType.length() > MAX_MEDIA_TYPE_LENGTH) {
            throw new IllegalArgumentException("the media type of document '" + documentId + "' is " + mediaType.length()
                    + " characters; at most " + MAX_MEDIA_TYPE_LENGTH);
        }
        CallerText.require("the media type of document '" + documentId + "'", mediaType);
        source = source == null || source.isBlank() ? documentId : source;
        if (source.length() > MAX_SOURCE_LENGTH) {
            throw new IllegalArgumentException("the source of document '" + documentId + "' is " + source.length()
                    + " characters; at most " + MAX_SOURCE_LENGTH + " are stored: give a shorter 'source'");
        }
        CallerText.require("the source of document '" + documentId + "'", source);
        fileName = fileName == null ? documentId : safeFileName(fileName);
        metadata = DocumentMetadata.fromCaller(metadata);
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
