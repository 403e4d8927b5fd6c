package io.corpora.server.api.model;

import io.corpora.controlplane.IngestJob;
import io.corpora.server.rest.Problem;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** What happened to one ingested document; {@code error} and {@code type} only when it failed. */
@Schema(name = "IngestOutcome")
@JsonbPropertyOrder({"documentId", "result", "skipped", "version", "chunks", "status", "type", "error"})
public record IngestOutcome(@Schema String documentId, @Schema(description = "stored | skipped | failed") String result, @Schema boolean skipped,
                            @Schema int version, @Schema int chunks,
                            @Schema(description = "The HTTP status a single-document request answers (201, 200, 4xx/5xx)") int status,
                            @Schema(description = "For a failure, the problem type a single-document request answers, e.g."
                                    + " https://corpora.dev/problems/concurrent-write; absent otherwise") String type,
                            @Schema String error) {

    public static IngestOutcome of(IngestJob.Outcome o) {
        return new IngestOutcome(o.documentId(), o.result(), "skipped".equals(o.result()), o.version(), o.chunks(), o.status(),
                o.problem() == null ? null : Problem.type(o.problem()), o.error());
    }
}
