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

    public ProseChunker(ChunkingOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    @Override
    public List<Chunk> chunk(String documentId, LoadedDocument document) {
        ChunkFactory factory = new ChunkFactory(documentId, document);
        for (Section section : document.sections()) {
            if (options.separator() != null) {
                for (RecordPacker.Piece piece : RecordPacker.pack(section.text(), options)) {
                    factory.add(piece.text(), List.of(), section.metadata(), piece.oversizedRecord());
                }
            } else {
                factory.addSplitting(section.text(), List.of(), section.metadata(), options, false);
            }
        }
        return factory.chunks();
    }
}
