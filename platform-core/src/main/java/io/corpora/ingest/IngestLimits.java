package io.corpora.ingest;

import io.corpora.spi.Metadata;
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
 * @param maxMetadataKeys      most keys in a document's metadata (at most the SPI's {@value Metadata#MAX_KEYS})
 * @param maxMetadataBytes     largest metadata of a document, as compact JSON in UTF-8 ({@link DocumentMetadata#jsonBytes})
 */
public record IngestLimits(long maxDocumentBytes, int maxChunksPerDocument, int embedBatchSize, Duration processingTimeout,
                           int maxMetadataKeys, long maxMetadataBytes) {
    public static final IngestLimits DEFAULT = new IngestLimits(50L * 1024 * 1024, 20_000, 64, Duration.ofSeconds(60), 64, 16 * 1024);

    public IngestLimits {
        if (maxDocumentBytes < 1 || maxChunksPerDocument < 1 || embedBatchSize < 1 || maxMetadataKeys < 1 || maxMetadataBytes < 2) {
            throw new IllegalArgumentException("ingest limits must be positive");
        }
        if (maxMetadataKeys > Metadata.MAX_KEYS) {
            throw new IllegalArgumentException("maxMetadataKeys is at most " + Metadata.MAX_KEYS + ", got " + maxMetadataKeys);
        }
        Objects.requireNonNull(processingTimeout, "processingTimeout");
        if (processingTimeout.isZero() || processingTimeout.isNegative()) {
            throw new IllegalArgumentException("processingTimeout must be positive, got " + processingTimeout);
        }
    }
}
