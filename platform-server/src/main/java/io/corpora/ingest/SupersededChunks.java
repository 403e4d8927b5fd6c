package io.corpora.ingest;

import io.corpora.control.DocumentRegistry;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;

/**
 * Removes a document's chunks of every version but the active one, then clears the registry's cleanup marker. Run
 * right after an activation, and again at boot for documents whose marker a crash left set.
 */
final class SupersededChunks {

    private SupersededChunks() {}

    /** Returns how many chunks were deleted. */
    static int remove(VectorStore store, DocumentRegistry registry, Namespace namespace, String documentId, int activeVersion) {
        int removed = store.deleteWhere(namespace, MetadataFilter.and(MetadataFilter.eq(ReservedKeys.DOCUMENT, documentId),
                MetadataFilter.not(MetadataFilter.eq(ReservedKeys.VERSION, activeVersion))));
        registry.cleanedUp(namespace, documentId, activeVersion);
        return removed;
    }
}
