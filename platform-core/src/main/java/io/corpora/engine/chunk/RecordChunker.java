package io.corpora.engine.chunk;

import io.corpora.spi.loader.Section;
import java.util.List;

/**
 * Independent records (JSON array items, JSONL lines, CSV rows rendered with their header names by the loader):
 * one chunk per record section. A record larger than the window is split by the prose rule and each piece is
 * flagged {@code oversizedRecord: true}, so no record is silently cut.
 */
public final class RecordChunker extends SectionChunker {

    public RecordChunker(ChunkingOptions options) {
        this(options, DocumentDeadline.NONE);
    }

    /** A chunker that checks the document's deadline as it goes ({@link DocumentDeadline.Exceeded} once it passes). */
    public RecordChunker(ChunkingOptions options, DocumentDeadline deadline) {
        super(options, deadline);
    }

    @Override
    void chunkSection(Section section, ChunkFactory factory) {
        factory.addSplitting(section.text(), List.of(), section.metadata(), options(), true);
    }
}
