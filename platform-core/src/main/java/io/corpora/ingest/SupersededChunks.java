package io.corpora.ingest;

import io.corpora.controlplane.DocumentRegistry;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;

/**
 * Removes a document's chunks of the versions <b>older</b> than the one just activated, then clears the registry's
 * cleanup marker. Run right after an activation, and again at boot for documents whose marker a crash left set. A newer
 * version may be being written meanwhile (it began after this activation): its chunks are never touched here; if it
 * fails, its own writer removes them.
 */
final class SupersededChunks {

    private SupersededChunks() {}

    /** Returns how many chunks were deleted. */
    static int remove(VectorStore store, DocumentRegistry registry, Namespace namespace, String documentId, int activeVersion) {
        int removed = store.deleteWhere(namespace, MetadataFilter.and(MetadataFilter.eq(ReservedKeys.DOCUMENT, documentId),
                new MetadataFilter.Range(ReservedKeys.VERSION, null, false, activeVersion, false)));
        registry.cleanedUp(namespace, documentId, activeVersion);
        return removed;
    }
}
