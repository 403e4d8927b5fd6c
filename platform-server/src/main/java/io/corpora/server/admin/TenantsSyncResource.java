package io.corpora.server.admin;

import io.corpora.server.admin.model.TenantSyncReport;
import io.corpora.server.Roles;
import io.corpora.server.tenants.TenantsConfigService;
import io.corpora.tenancy.config.TenantSync;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code POST /admin/v1/tenants:sync}: validates every tenants-config file, creates missing tenants, updates changed
 * ones and reports (never deletes) tenants that exist only in the database.
 */
@Path("/admin/v1/tenants:sync")
@RequestScoped
@Tag(name = "admin")
public class TenantsSyncResource {

    @Inject
    TenantsConfigService tenantsConfig;

    @Inject
    JsonWebToken caller;

    @POST
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.PLATFORM_ADMIN)
    @SecurityRequirement(name = "jwt")
    @Operation(summary = "Sync the tenant registry with tenants-config and report what changed")
    public TenantSyncReport sync() {
        TenantSync.Report report = tenantsConfig.sync(TenantViews.actor(caller));
        return TenantSyncReport.of(tenantsConfig.directory().toString(), report);
    }
}
