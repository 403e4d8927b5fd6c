package io.corpora.server.api.model;

import io.corpora.engine.retriever.RetrievalDiagnostics;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * How a retrieval went: per-leg candidates and timings, the embedder, the isolation post-verification counts
 * ({@code examined}, {@code rejected}, {@code returned}, {@code recall}; left out when not checked), refusals by the
 * context budget, and whether a stage degraded.
 */
@Schema(name = "Diagnostics")
@JsonbPropertyOrder({"legs", "totalMillis", "embedder", "examined", "rejected", "returned", "recall", "corpusEmpty", "refusals",
        "degraded", "degradedReason", "notes"})
public record Diagnostics(@Schema List<Leg> legs, @Schema double totalMillis, @Schema @JsonbNillable String embedder, @Schema Integer examined, @Schema Integer rejected,
                          @Schema Integer returned, @Schema(description = "complete, or potentially-reduced when a bounded over-fetch was needed") String recall,
                          @Schema @JsonbNillable Boolean corpusEmpty, @Schema List<Refusal> refusals, @Schema boolean degraded, @Schema String degradedReason, @Schema List<String> notes) {

    /** One retrieval leg (e.g. dense, lexical). */
    @Schema(name = "RetrievalLeg")
    @JsonbPropertyOrder({"name", "candidates", "millis"})
    public record Leg(@Schema String name, @Schema int candidates, @Schema double millis) {}

    /** A passage the context budget or score threshold left out. */
    @Schema(name = "Refusal")
    @JsonbPropertyOrder({"passageId", "reason", "score", "chars", "charsUsed"})
    public record Refusal(@Schema String passageId, @Schema String reason, @Schema double score, @Schema int chars, @Schema int charsUsed) {}

    public static Diagnostics of(RetrievalDiagnostics d) {
        io.corpora.engine.retriever.IsolationReport i = d.isolation();
        return new Diagnostics(
                d.legs().stream().map(l -> new Leg(l.name(), l.candidates(), l.millis())).toList(),
                d.totalMillis(), d.embedderId(),
                i == null ? null : i.examined(), i == null ? null : i.rejected(), i == null ? null : i.returned(), i == null ? null : i.recall(),
                d.corpusEmpty(),
                d.refusals().stream().map(r -> new Refusal(r.passageId(), r.reason().name(), r.score(), r.chars(), r.charsUsed())).toList(),
                d.degraded(), d.degradedReason(), d.notes());
    }
}
