package io.corpora.server.api;

import io.corpora.controlplane.IngestJob;
import io.corpora.access.TenantView;
import io.corpora.server.Roles;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.dataplane.JobRunner;
import io.corpora.server.security.CallerScope;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import java.net.URI;
import io.corpora.server.api.model.CorpusStats;
import io.corpora.server.api.model.IndexReport;
import io.corpora.server.api.model.Job;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Registry-versus-store consistency of a namespace: verify (read-only) and rebuild (a job, from the registry's text). */
@Path("/api/v1/tenants/{tenant}")
@RequestScoped
@Tag(name = "documents")
@SecurityRequirement(name = "jwt")
public class IndexResource {

    @Inject
    CallerScope caller;

    @Inject
    DataPlane dataPlane;

    @Inject
    JobRunner jobs;

    @Context
    UriInfo uri;

    @GET
    @Path("index:verify")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Report missing, orphaned, stale and unstamped chunks without repairing anything",
            description = "Covers what the caller may see: documents and chunks the tenant's access filter hides from it are neither"
                    + " listed nor counted.")
    public IndexReport verify(@PathParam("tenant") String tenantId, @QueryParam("partition") String partition) {
        TenantView view = dataPlane.view(caller, tenantId, partition, Roles.WRITER, Roles.TENANT_ADMIN);
        return IndexReport.of(view.namespace().key(), view.verify());
    }

    @GET
    @Path("stats")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Documents, chunks and bytes of the tenant's active versions, and documents by partition and status",
            description = "Counts what the caller may see: only its partition for a partition-bound token, and only the documents the"
                    + " tenant's access filter lets it see (with their chunks and bytes).")
    public CorpusStats stats(@PathParam("tenant") String tenantId) {
        TenantView view = dataPlane.view(caller, tenantId, null, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        return CorpusStats.of(view.tenant().id(), view.stats());
    }

    @POST
    @Path("index:rebuild")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.TENANT_ADMIN})
    @Operation(summary = "Start a job re-pushing every registered document from the registry's text, then removing orphaned chunks",
            description = "Answered 202 with the job and its Location; the job lists one outcome per document and its percent."
                    + " GET index:verify afterwards to confirm the namespace is consistent. One rebuild per namespace at a time: another"
                    + " is refused while one is queued or running on any server sharing the control plane.")
    @APIResponse(responseCode = "202", description = "The rebuild job, queued; Location is GET jobs/{id}",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Job.class)))
    @APIResponse(responseCode = "409", description = "The namespace is already being rebuilt (rebuild-in-progress), by this"
            + " server or another; the problem's detail names the job to follow")
    public Response rebuild(@PathParam("tenant") String tenantId, @QueryParam("partition") String partition) {
        IngestJob job = jobs.submitRebuild(dataPlane.view(caller, tenantId, partition, Roles.TENANT_ADMIN));
        URI location = uri.getBaseUriBuilder().path("api/v1/tenants/{tenant}/jobs/{id}").build(job.tenant(), job.id());
        return Response.accepted(Job.of(job)).location(location).build();
    }
}
