package io.corpora.server.api.model;

import io.corpora.controlplane.DocumentRegistry;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** Documents, chunks and bytes of a tenant's active versions (what the caller may see), by partition and status. */
@Schema(name = "CorpusStats")
@JsonbPropertyOrder({"tenant", "documents", "chunks", "bytes", "documentsByPartition", "documentsByStatus"})
public record CorpusStats(@Schema String tenant, @Schema long documents, @Schema long chunks, @Schema long bytes, @Schema Map<String, Long> documentsByPartition,
                          @Schema Map<String, Long> documentsByStatus) {

    public static CorpusStats of(String tenant, DocumentRegistry.CorpusStats s) {
        return new CorpusStats(tenant, s.documents(), s.chunks(), s.bytes(), s.documentsByPartition(), s.documentsByStatus());
    }
}
