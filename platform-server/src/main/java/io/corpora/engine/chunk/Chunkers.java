package io.corpora.engine.chunk;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.LoadedDocument;
import java.util.List;
import java.util.Objects;

/** Picks the chunker for a document's {@link ContentFormat}. */
public final class Chunkers {

    private final ChunkingOptions options;

    public Chunkers(ChunkingOptions options) {
        this.options = Objects.requireNonNull(options, "options");
    }

    public Chunker forFormat(ContentFormat format) {
        return switch (Objects.requireNonNull(format, "format")) {
            case PROSE -> new ProseChunker(options);
            case MARKDOWN -> new MarkdownChunker(options);
            case RECORDS -> new RecordChunker(options);
        };
    }

    /** Chunks a document with the chunker its format selects. */
    public List<Chunk> chunk(String documentId, LoadedDocument document) {
        return forFormat(document.format()).chunk(documentId, document);
    }

    public ChunkingOptions options() {
        return options;
    }
}
