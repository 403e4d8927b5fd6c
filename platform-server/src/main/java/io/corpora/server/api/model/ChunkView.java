package io.corpora.server.api.model;

import io.corpora.spi.Chunk;
import io.corpora.spi.Metadata;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One chunk of a document's active version, with its caller-visible metadata (reserved keys removed). */
@Schema(name = "Chunk")
@JsonbPropertyOrder({"id", "index", "text", "headingPath", "metadata"})
public record ChunkView(@Schema String id, @Schema int index, @Schema String text, @Schema List<String> headingPath, @Schema Map<String, Object> metadata) {

    public static ChunkView of(Chunk chunk) {
        return new ChunkView(chunk.id(), chunk.index(), chunk.text(), chunk.headingPath(), Metadata.withoutReserved(chunk.metadata()));
    }
}
