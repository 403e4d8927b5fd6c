package io.corpora.spi.store;

import io.corpora.spi.Chunk;
import java.util.List;

/** A page of a namespace's chunks in id order; {@code nextAfterId} is null on the last page. */
public record ChunkPage(List<Chunk> chunks, String nextAfterId) {
    public ChunkPage {
        chunks = List.copyOf(chunks);
    }
}
