package io.corpora.server.admin.model;

import io.corpora.tenancy.config.TenantFileProblem;
import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** One problem of a tenant definition: the file, the JSON pointer into it, and why. */
@Schema(name = "TenantFileProblem")
@JsonbPropertyOrder({"file", "pointer", "reason"})
public record TenantFileProblemView(@Schema @JsonbNillable String file, @Schema @JsonbNillable String pointer, @Schema String reason) {

    public static TenantFileProblemView of(TenantFileProblem problem) {
        return new TenantFileProblemView(problem.file(), problem.pointer(), problem.reason());
    }
}
