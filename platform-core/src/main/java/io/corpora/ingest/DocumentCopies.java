package io.corpora.ingest;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.IngestJob;
import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/** What every corpus migration reads of one document and the outcomes its copy can have. */
final class DocumentCopies {

    private DocumentCopies() {}

    /** The document's active version: the chunks a migration copies. */
    static MetadataFilter activeVersion(DocumentRecord document) {
        return MetadataFilter.and(MetadataFilter.eq(ReservedKeys.DOCUMENT, document.documentId()),
                MetadataFilter.eq(ReservedKeys.VERSION, document.activeVersion()));
    }

    /** The active version's chunks {@code store} holds whose {@code _embedder} is one the tenant serves, in store order. */
    static List<Chunk> servingChunks(VectorStore store, DocumentRecord document, Predicate<Object> servingEmbedder) {
        List<Chunk> chunks = new ArrayList<>();
        for (Chunk chunk : store.documentChunks(document.namespace(), document.documentId())) {
            if (chunk.metadata().get(ReservedKeys.VERSION) instanceof Number v && v.intValue() == document.activeVersion()
                    && servingEmbedder.test(chunk.metadata().get(ReservedKeys.EMBEDDER))) {
                chunks.add(chunk);
            }
        }
        return chunks;
    }

    static IngestJob.Outcome skipped(DocumentRecord document) {
        return new IngestJob.Outcome(document.documentId(), "skipped", document.activeVersion(), document.chunkCount(), 200, null);
    }

    static IngestJob.Outcome stored(DocumentRecord document, int chunks) {
        return new IngestJob.Outcome(document.documentId(), "stored", document.activeVersion(), chunks, 200, null);
    }

    static IngestJob.Outcome failed(DocumentRecord document, int status, String problem, String error) {
        return IngestJob.Outcome.failed(document.documentId(), document.activeVersion(), status, problem, error);
    }

    /** A copy that threw ({@link FailedOutcomes}); the migration rolls back, so the tenant keeps what it had. */
    static IngestJob.Outcome failed(DocumentRecord document, RuntimeException e) {
        return FailedOutcomes.of(document.documentId(), document.activeVersion(), e, "the server log has the details");
    }

    /** {@code store} ("the store", "the source store") holds only {@code held} of the active version's chunks. */
    static IngestJob.Outcome incomplete(DocumentRecord document, String store, int held, String beforeWhat) {
        return failed(document, 409, "index-incomplete", store + " holds " + held + " of the " + document.chunkCount() + " chunks of version "
                + document.activeVersion() + " (partition " + document.namespace().partitionKey() + "); repair it with POST index:rebuild before "
                + beforeWhat);
    }
}
