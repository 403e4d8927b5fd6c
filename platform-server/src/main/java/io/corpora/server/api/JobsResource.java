package io.corpora.server.api;

import io.corpora.controlplane.IngestJob;

import io.corpora.access.TenantView;
import io.corpora.server.Roles;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.dataplane.JobRunner;
import io.corpora.server.rest.ProblemException;
import io.corpora.server.security.CallerScope;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.DefaultValue;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Duration;
import io.corpora.server.api.model.Job;
import io.corpora.server.api.model.JobList;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.media.Content;
import org.eclipse.microprofile.openapi.annotations.media.Schema;
import org.eclipse.microprofile.openapi.annotations.responses.APIResponse;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Ingest jobs of a tenant: status, counts, percent and per-document outcomes, as the caller may see them: a
 * partition-bound token sees its partition's jobs only, and outcomes of documents the caller may not see are removed
 * (the counts then count the outcomes shown; see {@link TenantView#jobs}).
 */
@Path("/api/v1/tenants/{tenant}/jobs")
@RequestScoped
@Tag(name = "documents")
@SecurityRequirement(name = "jwt")
public class JobsResource {

    /** The longest {@code wait} a caller may ask for: a request thread is held that long at most. */
    static final int MAX_WAIT_SECONDS = 30;

    @Inject
    CallerScope caller;

    @Inject
    DataPlane dataPlane;

    @Inject
    JobRunner jobRunner;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Recent ingest jobs, newest first",
            description = "A partition-bound token sees only its partition's jobs (tenant-wide re-embed jobs need an unbound token)."
                    + " Outcomes of documents the caller may not see are left out; succeeded, skipped and failed then count the outcomes"
                    + " shown, and total those plus the documents not processed yet.")
    public JobList list(@PathParam("tenant") String tenantId, @QueryParam("limit") @DefaultValue("20") int limit) {
        caller.actorFor(tenantId, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        if (limit < 1 || limit > 200) {
            throw new ProblemException(400, "invalid-request", "Invalid request", "limit must be between 1 and 200");
        }
        return new JobList(view(tenantId).jobs(limit).stream().map(Job::of).toList());
    }

    @GET
    @Path("{id}")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "One ingest job", description = "With wait=N (seconds, at most 30) the answer is held until the job has"
            + " finished or N seconds have passed, whichever comes first, so a client learns of a finished job at once instead of at"
            + " its next poll; the job is returned either way (check its status). A server already holding its limit of such looks"
            + " (corpora.jobs.maxWaiting, 64; corpora.jobs.maxWaitingPerTenant, 8) answers at once. Once the job has finished, and when the tenant's"
            + " store reads from replicas, the Corpora-Consistency header carries the token a retrieve sends back to see the job's"
            + " documents (read-your-writes).")
    @APIResponse(responseCode = "200", description = "The job",
            content = @Content(mediaType = MediaType.APPLICATION_JSON, schema = @Schema(implementation = Job.class)))
    @APIResponse(responseCode = "400", description = "wait is not a whole number of seconds from 0 to 30")
    public Response get(@PathParam("tenant") String tenantId, @PathParam("id") String id, @QueryParam("wait") String wait)
            throws InterruptedException {
        Duration waitFor = waitOf(wait);
        TenantView view = view(tenantId);
        IngestJob job = jobRunner.completions().await(tenantId, id, waitFor, () -> view.job(id)).orElseThrow(() -> new ProblemException(404,
                "job-not-found", "Job not found", "no job '" + id + "' for this tenant"));
        Response.ResponseBuilder response = Response.ok(Job.of(job));
        return (job.finished() ? ReadYourWrites.withToken(response, view) : response).build();
    }

    private static Duration waitOf(String wait) {
        if (wait == null || wait.isEmpty()) {
            return Duration.ZERO;
        }
        int seconds;
        try {
            seconds = Integer.parseInt(wait);
        } catch (NumberFormatException e) {
            seconds = -1;
        }
        if (seconds < 0 || seconds > MAX_WAIT_SECONDS) {
            throw new ProblemException(400, "invalid-request", "Invalid request",
                    "wait must be a whole number of seconds from 0 to " + MAX_WAIT_SECONDS + ", got '" + wait + "'");
        }
        return Duration.ofSeconds(seconds);
    }

    private TenantView view(String tenantId) {
        return dataPlane.view(caller, tenantId, null, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
    }
}
