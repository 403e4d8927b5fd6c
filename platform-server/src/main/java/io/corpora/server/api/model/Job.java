package io.corpora.server.api.model;

import io.corpora.controlplane.IngestJob;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import java.util.Locale;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * An ingest, rebuild, re-embed or relocation job; also served by the admin API. {@code reembed} and {@code error} only
 * when set (a relocation's stores are in the audit log and, after the switch, in the tenant's definition).
 */
@Schema(name = "Job")
@JsonbPropertyOrder({"id", "kind", "partition", "status", "total", "succeeded", "skipped", "failed", "percent", "reembed", "error",
        "outcomes", "created", "updated"})
public record Job(@Schema String id, @Schema(description = "ingest | rebuild (index:rebuild; one recorded by an earlier version shows ingest) | reembed | relocate") String kind,
                  @JsonbNillable @Schema(description = "null for a tenant-wide job") String partition,
                  @Schema(description = "QUEUED, RUNNING, SUCCEEDED, PARTIALLY_FAILED or FAILED") String status,
                  @Schema int total, @Schema int succeeded, @Schema int skipped, @Schema int failed, @Schema int percent, @Schema Reembed reembed, @Schema String error,
                  @Schema List<IngestOutcome> outcomes, @Schema String created, @Schema String updated) {

    /** What a re-embed migration moves from and to. */
    @Schema(name = "JobReembed")
    @JsonbPropertyOrder({"from", "to", "provider"})
    public record Reembed(@Schema @JsonbNillable String from, @Schema String to, @Schema String provider) {}

    public static Job of(IngestJob job) {
        Reembed reembed = job.reembed() == null ? null
                : new Reembed(job.reembed().fromEmbedder(), job.reembed().toEmbedder(), job.reembed().targetEmbedder().provider());
        return new Job(job.id(), job.kind().name().toLowerCase(Locale.ROOT), job.partition(), job.status().name(), job.total(),
                job.succeeded(), job.skipped(), job.failed(), job.percent(), reembed, job.error(),
                job.outcomes().stream().map(IngestOutcome::of).toList(), String.valueOf(job.created()), String.valueOf(job.updated()));
    }
}
