package io.corpora.engine.chunk;

import io.corpora.spi.loader.Section;
import java.util.List;

/**
 * Running prose: each section is cut by the window rule ({@link WindowSplitter}), or, when the options name a
 * separator, packed record by record ({@link RecordPacker}).
 */
public final class ProseChunker extends SectionChunker {

    public ProseChunker(ChunkingOptions options) {
        this(options, DocumentDeadline.NONE);
    }

    /** A chunker that checks the document's deadline as it goes ({@link DocumentDeadline.Exceeded} once it passes). */
    public ProseChunker(ChunkingOptions options, DocumentDeadline deadline) {
        super(options, deadline);
    }

    @Override
    void chunkSection(Section section, ChunkFactory factory) {
        if (options().separator() != null) {
            for (RecordPacker.Piece piece : RecordPacker.pack(section.text(), options(), deadline())) {
                factory.add(piece.text(), List.of(), section.metadata(), piece.oversizedRecord());
            }
        } else {
            factory.addSplitting(section.text(), List.of(), section.metadata(), options(), false);
        }
    }
}
