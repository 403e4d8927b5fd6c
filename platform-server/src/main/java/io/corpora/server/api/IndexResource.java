package io.corpora.server.api;

import io.corpora.control.IngestJob;
import io.corpora.control.Tenant;
import io.corpora.ingest.IndexVerifier;
import io.corpora.server.Roles;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.security.CallerScope;
import io.corpora.spi.Namespace;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Registry-versus-store consistency of a namespace: verify (read-only) and rebuild (from the registry's text). */
@Path("/api/v1/tenants/{tenant}")
@RequestScoped
@Tag(name = "documents")
@SecurityRequirement(name = "jwt")
public class IndexResource {

    @Inject
    CallerScope caller;

    @Inject
    DataPlane dataPlane;

    @GET
    @Path("index:verify")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Report missing, orphaned, stale and unstamped chunks without repairing anything")
    public Map<String, Object> verify(@PathParam("tenant") String tenantId, @QueryParam("partition") String partition) {
        DataPlane.Scope scope = dataPlane.scope(caller, tenantId, partition, Roles.WRITER, Roles.TENANT_ADMIN);
        Tenant tenant = scope.tenant();
        Namespace namespace = scope.namespace();
        IndexVerifier.Report report = IndexVerifier.verify(dataPlane.registry(), dataPlane.runtime(tenant).store(), namespace);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("namespace", namespace.key());
        body.put("consistent", report.consistent());
        body.put("documents", report.documents());
        body.put("chunks", report.chunks());
        body.put("missing", Map.of("count", report.missingCount(), "documents", report.missing()));
        body.put("orphaned", Map.of("count", report.orphanedCount(), "chunkIds", report.orphaned()));
        body.put("stale", Map.of("count", report.staleCount(), "chunkIds", report.stale()));
        body.put("unstamped", Map.of("count", report.unstampedCount(), "chunkIds", report.unstamped()));
        return body;
    }

    @GET
    @Path("stats")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @Operation(summary = "Documents, chunks and bytes of the tenant's active versions, and documents by partition and status")
    public Map<String, Object> stats(@PathParam("tenant") String tenantId) {
        DataPlane.Scope scope = dataPlane.scope(caller, tenantId, null, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        io.corpora.control.DocumentRegistry.CorpusStats stats = dataPlane.registry().stats(scope.tenant().id());
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("tenant", scope.tenant().id());
        body.put("documents", stats.documents());
        body.put("chunks", stats.chunks());
        body.put("bytes", stats.bytes());
        body.put("documentsByPartition", stats.documentsByPartition());
        body.put("documentsByStatus", stats.documentsByStatus());
        return body;
    }

    @POST
    @Path("index:rebuild")
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.TENANT_ADMIN})
    @Operation(summary = "Re-push every registered document from the registry's text and remove orphaned chunks")
    public Map<String, Object> rebuild(@PathParam("tenant") String tenantId, @QueryParam("partition") String partition) {
        DataPlane.Scope scope = dataPlane.scope(caller, tenantId, partition, Roles.TENANT_ADMIN);
        Tenant tenant = scope.tenant();
        Namespace namespace = scope.namespace();
        List<IngestJob.Outcome> outcomes = dataPlane.ingestion().rebuild(tenant, dataPlane.runtime(tenant), namespace);
        IndexVerifier.Report after = IndexVerifier.verify(dataPlane.registry(), dataPlane.runtime(tenant).store(), namespace);
        Map<String, Object> body = new LinkedHashMap<>();
        body.put("namespace", namespace.key());
        body.put("rebuilt", outcomes.stream().filter(o -> !o.result().equals("failed")).count());
        body.put("failed", outcomes.stream().filter(o -> o.result().equals("failed")).map(Json::outcome).toList());
        body.put("consistent", after.consistent());
        return body;
    }
}
