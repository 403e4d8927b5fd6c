package io.corpora.server.api.model;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** The chunks of one document's active version, in order. */
@Schema(name = "DocumentChunks")
@JsonbPropertyOrder({"documentId", "chunks"})
public record DocumentChunks(@Schema String documentId, @Schema List<ChunkView> chunks) {}
