package io.corpora.ingest;

/**
 * Server-wide ingest limits (tenant quotas come on top).
 *
 * @param maxDocumentBytes     largest accepted document
 * @param maxChunksPerDocument a document chunking to more is refused whole (413)
 * @param embedBatchSize       chunks embedded and written per store call (bounds memory and shows progress)
 */
public record IngestLimits(long maxDocumentBytes, int maxChunksPerDocument, int embedBatchSize) {
    public static final IngestLimits DEFAULT = new IngestLimits(50L * 1024 * 1024, 20_000, 64);

    public IngestLimits {
        if (maxDocumentBytes < 1 || maxChunksPerDocument < 1 || embedBatchSize < 1) {
            throw new IllegalArgumentException("ingest limits must be positive");
        }
    }
}
