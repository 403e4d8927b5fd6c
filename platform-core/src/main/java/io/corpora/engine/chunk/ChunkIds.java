package io.corpora.engine.chunk;

import io.corpora.spi.Identifiers;

/**
 * Chunk ids: {@code <documentId>:<index>}. Stable (re-chunking the same text yields the same ids) and unambiguous
 * (the index is the digits after the last colon, so two documents never produce the same id). The server
 * namespaces these per tenant before they reach a store.
 */
public final class ChunkIds {

    private ChunkIds() {}

    public static String of(String documentId, int index) {
        Identifiers.requireDocumentId(documentId);
        if (index < 0) {
            throw new IllegalArgumentException("chunk index must be >= 0, got " + index);
        }
        return documentId + ":" + index;
    }
}
