package io.corpora.engine.chunk;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.LoadedDocument;
import io.corpora.spi.loader.Section;
import java.util.List;
import java.util.Objects;

/**
 * A chunker that cuts each section on its own, checking the document's deadline as it goes
 * ({@link DocumentDeadline.Exceeded} once it passes): the subclass says how one section becomes chunks.
 */
abstract class SectionChunker implements Chunker {

    private final ChunkingOptions options;
    private final DocumentDeadline deadline;

    SectionChunker(ChunkingOptions options, DocumentDeadline deadline) {
        this.options = Objects.requireNonNull(options, "options");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    @Override
    public final List<Chunk> chunk(String documentId, LoadedDocument document) {
        ChunkFactory factory = new ChunkFactory(documentId, document, deadline);
        for (Section section : document.sections()) {
            chunkSection(section, factory);
        }
        return factory.chunks();
    }

    /** Adds one section's chunks to {@code factory}. */
    abstract void chunkSection(Section section, ChunkFactory factory);

    final ChunkingOptions options() {
        return options;
    }

    final DocumentDeadline deadline() {
        return deadline;
    }
}
