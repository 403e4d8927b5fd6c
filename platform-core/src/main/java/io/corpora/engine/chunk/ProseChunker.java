package io.corpora.engine.chunk;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.util.List;
import java.util.Objects;

/**
 * Running prose: each section is cut by the window rule ({@link WindowSplitter}), or, when the options name a
 * separator, packed record by record ({@link RecordPacker}).
 */
public final class ProseChunker implements Chunker {

    private final ChunkingOptions options;
    private final DocumentDeadline deadline;

    public ProseChunker(ChunkingOptions options) {
        this(options, DocumentDeadline.NONE);
    }

    /** A chunker that checks the document's deadline as it goes ({@link DocumentDeadline.Exceeded} once it passes). */
    public ProseChunker(ChunkingOptions options, DocumentDeadline deadline) {
        this.options = Objects.requireNonNull(options, "options");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    @Override
    public List<Chunk> chunk(String documentId, LoadedDocument document) {
        ChunkFactory factory = new ChunkFactory(documentId, document, deadline);
        for (Section section : document.sections()) {
            if (options.separator() != null) {
                for (RecordPacker.Piece piece : RecordPacker.pack(section.text(), options, deadline)) {
                    factory.add(piece.text(), List.of(), section.metadata(), piece.oversizedRecord());
                }
            } else {
                factory.addSplitting(section.text(), List.of(), section.metadata(), options, false);
            }
        }
        return factory.chunks();
    }
}
