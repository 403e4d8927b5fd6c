package io.corpora.server.admin.model;

import jakarta.json.bind.annotation.JsonbNillable;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/**
 * A page of tenants by id; {@code next} (the {@code after} of the next page) is null at the end. Each tenant is its
 * definition (the tenant-definition format) plus activeEmbedder, created, updated and revision.
 */
@Schema(name = "TenantPage")
@JsonbPropertyOrder({"tenants", "next"})
public record TenantPage(@Schema List<Map<String, Object>> tenants, @Schema @JsonbNillable String next) {}
