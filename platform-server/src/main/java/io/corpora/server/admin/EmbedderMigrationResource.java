package io.corpora.server.admin;

import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.TenantRepository;
import io.corpora.server.Roles;
import io.corpora.server.api.model.Job;
import io.corpora.server.dataplane.CorpusMigrations;
import io.corpora.server.rest.Problem;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
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
 * Changing a tenant's embedder by re-embedding its corpus: a background migration job (see {@code ReembedMigration}).
 * {@code platform-admin} only, like every change of a tenant's definition (an embedder configuration may also name
 * files on the server, e.g. a custom model path). The tenant's own readers follow the job under its {@code jobs} route.
 */
@Path("/admin/v1/tenants")
@RequestScoped
@Tag(name = "admin")
@RolesAllowed(Roles.PLATFORM_ADMIN)
@SecurityRequirement(name = "jwt")
@Produces(MediaType.APPLICATION_JSON)
public class EmbedderMigrationResource {

    @Inject
    TenantRepository tenants;

    @Inject
    JobRepository jobs;

    @Inject
    MigrationRequests requests;

    @Inject
    CorpusMigrations migrations;

    @Context
    UriInfo uri;

    @POST
    @Path(TenantsResource.TENANT_ID + "/embedder:migrate")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Change the tenant's embedder by re-embedding its corpus in the background ({\"embedder\": {provider, config}});"
            + " the current embedder serves until an atomic switch")
    @APIResponse(responseCode = "202", description = "Started: the job (kind reembed) is QUEUED; Location names it",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Job.class)))
    @APIResponse(responseCode = "404", description = "The tenant does not exist")
    @APIResponse(responseCode = "409", description = "A migration of the tenant is already running (Retry-After), its writes in flight did not"
            + " finish in time, the tenant is not ACTIVE, or it already carries the target's fingerprint")
    @APIResponse(responseCode = "503", description = "This server is stopping (server-stopping, Retry-After): start it on another server")
    public Response migrate(@PathParam("id") String id, String body) {
        return requests.start(id, body, "embedder", "tenant.embedder.migrate", uri,
                (actor, tenant, target) -> migrations.reembed(actor, tenant, target.embedder()));
    }

    @GET
    @Path(TenantsResource.TENANT_ID + "/jobs/{job}")
    @Operation(summary = "One job of the tenant (e.g. its re-embed migration): kind, status, percent, counts, outcomes")
    @APIResponse(responseCode = "200", description = "The job",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Job.class)))
    @APIResponse(responseCode = "404", description = "The tenant, or a job with this id of the tenant, does not exist")
    public Response job(@PathParam("id") String id, @PathParam("job") String jobId) {
        if (tenants.find(id).isEmpty()) {
            return TenantViews.notFound(id);
        }
        return jobs.find(id, jobId).map(job -> Response.ok(Job.of(job)).build()).orElseGet(() ->
                Problem.response(404, "job-not-found", "Job not found", "no job '" + jobId + "' for tenant '" + id + "'"));
    }
}
