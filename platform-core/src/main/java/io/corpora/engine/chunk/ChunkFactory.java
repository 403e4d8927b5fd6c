package io.corpora.engine.chunk;

import io.corpora.spi.Chunk;
import io.corpora.spi.Identifiers;
import io.corpora.spi.loader.LoadedDocument;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Builds one document's chunks in order: ids from document id and position ({@link ChunkIds}), metadata
 * merged as document &lt; section &lt; chunk flags, the document title (when the loader found one) kept as
 * {@value #TITLE_KEY} unless the metadata already names a title.
 */
final class ChunkFactory {

    static final String TITLE_KEY = "title";
    /**
     * Most characters of a heading in a chunk's heading path and of the title in its metadata: both are copied onto
     * every chunk under them and into every index text, so one huge heading must not multiply by the chunk count.
     */
    static final int MAX_LABEL_CHARS = 200;
    static final String OVERSIZED_RECORD_KEY = "oversizedRecord";

    private final String documentId;
    private final Map<String, Object> documentMetadata;
    private final DocumentDeadline deadline;
    private final List<Chunk> chunks = new ArrayList<>();

    ChunkFactory(String documentId, LoadedDocument document, DocumentDeadline deadline) {
        this.documentId = Identifiers.requireDocumentId(documentId);
        this.deadline = deadline;
        Map<String, Object> merged = new LinkedHashMap<>(document.metadata());
        if (document.title() != null && !document.title().isBlank()) {
            merged.putIfAbsent(TITLE_KEY, label(document.title()));
        }
        this.documentMetadata = merged;
    }

    /** A heading or title as chunks carry it: stripped, and cut (at a character boundary, marked …) past the bound. */
    static String label(String text) {
        String stripped = text.strip();
        if (stripped.length() <= MAX_LABEL_CHARS) {
            return stripped;
        }
        int cut = MAX_LABEL_CHARS - 1;
        if (Character.isLowSurrogate(stripped.charAt(cut))) {
            cut--;
        }
        return stripped.substring(0, cut) + "…";
    }

    void add(String text, List<String> headingPath, Map<String, ?> sectionMetadata, boolean oversizedRecord) {
        deadline.check("chunking");
        Map<String, Object> metadata = new LinkedHashMap<>(documentMetadata);
        metadata.putAll(sectionMetadata);
        if (oversizedRecord) {
            metadata.put(OVERSIZED_RECORD_KEY, true);
        }
        int index = chunks.size();
        chunks.add(new Chunk(ChunkIds.of(documentId, index), documentId, index, text, headingPath, metadata));
    }

    /** Adds the text as one chunk when it fits, else as prose windows. */
    void addSplitting(String text, List<String> headingPath, Map<String, ?> sectionMetadata, ChunkingOptions options,
                      boolean flagOversized) {
        String trimmed = text.strip();
        if (trimmed.isEmpty()) {
            return;
        }
        if (options.fits(trimmed)) {
            add(trimmed, headingPath, sectionMetadata, false);
            return;
        }
        for (WindowSplitter.Span span : WindowSplitter.split(trimmed, options, deadline)) {
            add(span.of(trimmed), headingPath, sectionMetadata, flagOversized);
        }
    }

    List<Chunk> chunks() {
        return List.copyOf(chunks);
    }
}
