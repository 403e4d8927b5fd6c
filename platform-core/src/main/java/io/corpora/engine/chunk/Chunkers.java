package io.corpora.engine.chunk;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.ContentFormat;
import io.corpora.spi.loader.LoadedDocument;
import java.util.List;
import java.util.Objects;

/** Picks the chunker for a document's {@link ContentFormat}; every chunker it makes works within one deadline. */
public final class Chunkers {

    private final ChunkingOptions options;
    private final DocumentDeadline deadline;

    public Chunkers(ChunkingOptions options) {
        this(options, DocumentDeadline.NONE);
    }

    public Chunkers(ChunkingOptions options, DocumentDeadline deadline) {
        this.options = Objects.requireNonNull(options, "options");
        this.deadline = Objects.requireNonNull(deadline, "deadline");
    }

    public Chunker forFormat(ContentFormat format) {
        return switch (Objects.requireNonNull(format, "format")) {
            case PROSE -> new ProseChunker(options, deadline);
            case MARKDOWN -> new MarkdownChunker(options, deadline);
            case RECORDS -> new RecordChunker(options, deadline);
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
