package io.corpora.server.api.model;

import io.corpora.controlplane.IngestJob;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What happened to one ingested document; {@code error} only when it failed. */
@Schema(name = "IngestOutcome")
@JsonbPropertyOrder({"documentId", "result", "skipped", "version", "chunks", "status", "error"})
public record IngestOutcome(@Schema String documentId, @Schema(description = "stored | skipped | failed") String result, @Schema boolean skipped,
                            @Schema int version, @Schema int chunks,
                            @Schema(description = "The HTTP status a single-document request answers (201, 200, 4xx/5xx)") int status,
                            @Schema String error) {

    public static IngestOutcome of(IngestJob.Outcome o) {
        return new IngestOutcome(o.documentId(), o.result(), "skipped".equals(o.result()), o.version(), o.chunks(), o.status(), o.error());
    }
}
