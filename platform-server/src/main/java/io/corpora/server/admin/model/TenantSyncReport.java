package io.corpora.server.admin.model;

import io.corpora.tenancy.config.TenantSync;
import jakarta.json.bind.annotation.JsonbPropertyOrder;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.media.Schema;

/** POST /admin/v1/tenants:sync: what the sync with tenants-config created, updated, left alone, refused, and found only in the database. */
@Schema(name = "TenantSyncReport")
@JsonbPropertyOrder({"directory", "created", "updated", "unchanged", "invalid", "onlyInDatabase"})
public record TenantSyncReport(@Schema String directory, @Schema List<String> created, @Schema List<String> updated, @Schema List<String> unchanged,
                               @Schema List<TenantFileProblemView> invalid, @Schema List<String> onlyInDatabase) {

    public static TenantSyncReport of(String directory, TenantSync.Report report) {
        return new TenantSyncReport(directory, report.created(), report.updated(), report.unchanged(),
                report.invalid().stream().map(TenantFileProblemView::of).toList(), report.onlyInDatabase());
    }
}
