package io.corpora.server.api.model;

import io.corpora.controlplane.DocumentRecord;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A registered document: its active version, chunk count, size, metadata and status; {@code error} only when it failed. */
@Schema(name = "Document")
@JsonbPropertyOrder({"id", "partition", "source", "mediaType", "status", "version", "chunks", "bytes", "metadata", "error", "updated"})
public record DocumentView(@Schema String id, @Schema String partition, @Schema @JsonbNillable String source, @Schema @JsonbNillable String mediaType, @Schema String status,
                           @Schema int version, @Schema int chunks, @Schema long bytes, @Schema Map<String, Object> metadata, @Schema String error, @Schema String updated) {

    public static DocumentView of(DocumentRecord d) {
        return new DocumentView(d.documentId(), d.namespace().partitionKey(), d.source(), d.mediaType(), d.status().name(),
                d.activeVersion(), d.chunkCount(), d.bytes(), d.metadata(), d.error(), String.valueOf(d.updated()));
    }
}
