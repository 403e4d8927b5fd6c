package io.corpora.engine.chunk;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.util.List;
import java.util.Objects;

/**
 * Independent records (JSON array items, JSONL lines, CSV rows rendered with their header names by the loader):
 * one chunk per record section. A record larger than the window is split by the prose rule and each piece is
 * flagged {@code oversizedRecord: true}, so no record is silently cut.
 */
public final class RecordChunker implements Chunker {

    private final ChunkingOptions options;
    private final DocumentDeadline deadline;

    public RecordChunker(ChunkingOptions options) {
        this(options, DocumentDeadline.NONE);
    }

    /** A chunker that checks the document's deadline as it goes ({@link DocumentDeadline.Exceeded} once it passes). */
    public RecordChunker(ChunkingOptions options, DocumentDeadline deadline) {
        this.options = Objects.requireNonNull(options, "options");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    @Override
    public List<Chunk> chunk(String documentId, LoadedDocument document) {
        ChunkFactory factory = new ChunkFactory(documentId, document, deadline);
        for (Section section : document.sections()) {
            factory.addSplitting(section.text(), List.of(), section.metadata(), options, true);
        }
        return factory.chunks();
    }
}
