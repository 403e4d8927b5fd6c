package io.corpora.server.api.model;

import io.corpora.ingest.IndexVerifier;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** index:verify: registry-versus-store consistency of a namespace (what the caller may see). */
@Schema(name = "IndexReport")
@JsonbPropertyOrder({"namespace", "consistent", "documents", "chunks", "missing", "orphaned", "stale", "unstamped"})
public record IndexReport(@Schema String namespace, @Schema boolean consistent, @Schema int documents, @Schema long chunks, @Schema Missing missing, @Schema ChunkIds orphaned,
                          @Schema ChunkIds stale, @Schema ChunkIds unstamped) {

    /** Documents whose chunks the store lacks (listed up to a bound; {@code count} is exact). */
    @Schema(name = "IndexMissing")
    @JsonbPropertyOrder({"count", "documents"})
    public record Missing(@Schema long count, @Schema List<MissingDocument> documents) {}

    /**
     * A document version whose store holds {@code found} of its {@code expected} chunks (the engine's
     * {@link IndexVerifier.MissingChunks}, annotated here so the OpenAPI document lists its properties).
     */
    @Schema(name = "IndexMissingDocument")
    @JsonbPropertyOrder({"documentId", "version", "expected", "found"})
    public record MissingDocument(@Schema String documentId, @Schema int version, @Schema int expected, @Schema int found) {
        static MissingDocument of(IndexVerifier.MissingChunks m) {
            return new MissingDocument(m.documentId(), m.version(), m.expected(), m.found());
        }
    }

    /** Chunk ids of one kind of inconsistency (listed up to a bound; {@code count} is exact). */
    @Schema(name = "IndexChunkIds")
    @JsonbPropertyOrder({"count", "chunkIds"})
    public record ChunkIds(@Schema long count, @Schema List<String> chunkIds) {}

    public static IndexReport of(String namespace, IndexVerifier.Report r) {
        return new IndexReport(namespace, r.consistent(), r.documents(), r.chunks(), new Missing(r.missingCount(), r.missing().stream().map(MissingDocument::of).toList()),
                new ChunkIds(r.orphanedCount(), r.orphaned()), new ChunkIds(r.staleCount(), r.stale()),
                new ChunkIds(r.unstampedCount(), r.unstamped()));
    }
}
