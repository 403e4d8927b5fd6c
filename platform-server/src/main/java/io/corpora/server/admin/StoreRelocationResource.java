package io.corpora.server.admin;

import io.corpora.server.Roles;
import io.corpora.server.api.model.Job;
import io.corpora.server.dataplane.CorpusMigrations;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Moving a tenant's corpus to another store configuration (another database or table, another store plugin) while it
 * keeps serving: a background relocation job (see {@code StoreRelocation}). {@code platform-admin} only, like every
 * change of a tenant's definition; progress under {@code GET /admin/v1/tenants/{id}/jobs/{job}}.
 */
@Path("/admin/v1/tenants")
@RequestScoped
@Tag(name = "admin")
@RolesAllowed(Roles.PLATFORM_ADMIN)
@SecurityRequirement(name = "jwt")
@Produces(MediaType.APPLICATION_JSON)
public class StoreRelocationResource {

    @Inject
    MigrationRequests requests;

    @Inject
    CorpusMigrations migrations;

    @Context
    UriInfo uri;

    @POST
    @Path(TenantsResource.TENANT_ID + "/store:relocate")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Move the tenant's corpus to another store configuration in the background ({\"store\": {provider, config}});"
            + " the current store serves until an atomic switch, then its copy is deleted",
            description = "Active versions are copied with their stored vectors (no re-embedding); a source store that cannot return its"
                    + " vectors has the chunk texts embedded again by the tenant's unchanged embedder. Until the job ends the tenant's ingests,"
                    + " deletes and rebuilds are refused (409 migration-in-progress, Retry-After) on the server running it, and on"
                    + " every other server its version activations (ingests, rebuilds) and its document deletes, by the control plane.")
    @APIResponse(responseCode = "202", description = "Started: the job (kind relocate) is QUEUED; Location names it",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Job.class)))
    @APIResponse(responseCode = "400", description = "Not a {\"store\": …} body, an unknown store plugin, options it does not declare or"
            + " accept, or a target store that cannot be opened")
    @APIResponse(responseCode = "404", description = "The tenant does not exist")
    @APIResponse(responseCode = "409", description = "The target is the tenant's current store location (store-unchanged), the target"
            + " already holds chunks of the tenant (target-not-empty: the current store under another spelling, or a leftover), a migration"
            + " or relocation of the tenant is already running (Retry-After), its writes in flight did not finish in time, or it is not ACTIVE")
    @APIResponse(responseCode = "503", description = "This server is stopping (server-stopping, Retry-After): start it on another server")
    public Response relocate(@PathParam("id") String id, String body) {
        return requests.start(id, body, "store", "tenant.store.relocate", uri,
                (actor, tenant, target) -> migrations.relocate(actor, tenant, target.store()));
    }
}
