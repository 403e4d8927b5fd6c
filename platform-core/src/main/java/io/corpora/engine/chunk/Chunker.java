package io.corpora.engine.chunk;

import io.corpora.spi.Chunk;
import io.corpora.spi.loader.LoadedDocument;
import java.util.List;

/**
 * Cuts a loaded document into chunks. Chunks never span sections and inherit each section's metadata
 * (e.g. a PDF page); ids derive from the document id and the chunk's position, so re-chunking the same
 * text yields the same ids. Implementations are stateless and thread-safe.
 */
public interface Chunker {

    List<Chunk> chunk(String documentId, LoadedDocument document);
}
