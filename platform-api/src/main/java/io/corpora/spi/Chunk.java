package io.corpora.spi;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A unit of retrieval: a span of one document's text.
 *
 * @param id          unique within a namespace; derived from document id and position so re-ingest is stable
 * @param documentId  the owning document
 * @param index       0-based position of the chunk within its document version
 * @param text        the clean chunk text returned to callers
 * @param headingPath the headings enclosing the chunk, outermost first (empty when the format has none)
 * @param metadata    document metadata plus chunk-level metadata (e.g. page); reserved keys are server-written
 */
public record Chunk(String id, String documentId, int index, String text, List<String> headingPath, Map<String, Object> metadata) {

    public Chunk {
        Objects.requireNonNull(id, "id");
        if (id.isBlank() || id.length() > 1024) {
            throw new IllegalArgumentException("chunk id must be 1..1024 characters");
        }
        Identifiers.requireDocumentId(documentId);
        if (index < 0) {
            throw new IllegalArgumentException("chunk index must be >= 0, got " + index);
        }
        Objects.requireNonNull(text, "text");
        headingPath = headingPath == null ? List.of() : List.copyOf(headingPath);
        metadata = Metadata.copyOf(metadata);
    }

    public Chunk withText(String newText) {
        return new Chunk(id, documentId, index, newText, headingPath, metadata);
    }

    public Chunk withMetadata(Map<String, ?> newMetadata) {
        return new Chunk(id, documentId, index, text, headingPath, Metadata.copyOf(newMetadata));
    }
}
