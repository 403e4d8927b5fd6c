package io.corpora.ingest;

import java.time.Duration;
import java.util.Objects;

/**
 * Server-wide ingest limits (tenant quotas come on top).
 *
 * @param maxDocumentBytes     largest accepted document
 * @param maxChunksPerDocument a document chunking to more is refused whole (413)
 * @param embedBatchSize       chunks embedded and written per store call (bounds memory and shows progress)
 * @param processingTimeout    how long one document may take from the start of its loader call to its last chunk and
 *                             index text (the loader call's own timeout, so one deadline covers loading and chunking)
 */
public record IngestLimits(long maxDocumentBytes, int maxChunksPerDocument, int embedBatchSize, Duration processingTimeout) {
    public static final IngestLimits DEFAULT = new IngestLimits(50L * 1024 * 1024, 20_000, 64, Duration.ofSeconds(60));

    public IngestLimits {
        if (maxDocumentBytes < 1 || maxChunksPerDocument < 1 || embedBatchSize < 1) {
            throw new IllegalArgumentException("ingest limits must be positive");
        }
        Objects.requireNonNull(processingTimeout, "processingTimeout");
        if (processingTimeout.isZero() || processingTimeout.isNegative()) {
            throw new IllegalArgumentException("processingTimeout must be positive, got " + processingTimeout);
        }
    }
}
