package io.corpora.server.api.model;

import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** A page of a tenant's evaluations, newest first, without per-query scores. */
@Schema(name = "EvaluationList")
@JsonbPropertyOrder({"evaluations", "next"})
public record EvaluationList(@Schema List<Evaluation> evaluations,
                             @Schema(description = "the offset of the next page, null on the last") Integer next) {}
