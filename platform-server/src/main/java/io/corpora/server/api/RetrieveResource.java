package io.corpora.server.api;

import io.corpora.retrieval.RetrieveCommand;
import io.corpora.server.Roles;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.security.CallerScope;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.BadRequestException;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import jakarta.ws.rs.HeaderParam;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.ArrayList;
import java.util.List;
import io.corpora.server.api.model.RetrievalBatchResult;
import io.corpora.server.api.model.RetrievalResult;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code POST /api/v1/tenants/{tenant}/retrieve}: cited passages and a context block for a query. */
@Path("/api/v1/tenants/{tenant}")
@RequestScoped
@Tag(name = "retrieval")
public class RetrieveResource {

    @Inject
    CallerScope caller;

    @Inject
    DataPlane dataPlane;

    /** Most queries one batch may carry. */
    public static final int MAX_BATCH = 32;

    @POST
    @RetrieveBody
    @Path("retrieve")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @SecurityRequirement(name = "jwt")
    @Operation(summary = "Retrieve passages for a query, filtered by the caller's access, with citations and a context block",
            description = "Bounded, each a 400 naming the bound: the query's characters (corpora.retrieve.maxQueryChars, 4096) and"
                    + " terms (corpora.retrieve.maxQueryTerms, 256: runs of letters and digits, each CJK ideograph one), the filter's"
                    + " conditions and operators (maxFilterNodes, 64), nesting of $and/$not (maxFilterDepth, 8) and values in all"
                    + " (maxFilterValues, 1024); no NUL or other control character but tab, line feed and carriage return."
                    + " A body over corpora.retrieve.maxJsonBytes (131072) is 413.")
    public RetrievalResult retrieve(@PathParam("tenant") String tenantId, RetrieveRequest request,
                                    @Parameter(description = "read-your-writes: the token a write answered in this header; the search then"
                                            + " sees that write (a replica that has replayed it, else the primary after a bounded wait)")
                                    @HeaderParam(ReadYourWrites.HEADER) String consistencyToken) {
        caller.actorFor(tenantId, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        if (request == null) {
            throw new BadRequestException("a JSON body with a query is required");
        }
        RetrieveCommand command = request.toCommand(dataPlane.retrieveLimits()).withConsistencyToken(consistencyToken);
        return RetrievalResult.of(dataPlane.view(caller, tenantId, request.partition, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN)
                .retrieve(command));
    }

    @POST
    @RetrieveBody
    @Path("retrieve:batch")
    @Consumes(MediaType.APPLICATION_JSON)
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed({Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN})
    @SecurityRequirement(name = "jwt")
    @Operation(summary = "Several retrievals in one call (queries embedded together), answered in order; one partition per batch",
            description = "Each query is bounded as a single retrieve is; a body over corpora.retrieve.maxBatchJsonBytes (1048576) is 413.")
    public RetrievalBatchResult retrieveBatch(@PathParam("tenant") String tenantId, RetrieveBatchRequest request,
                                              @Parameter(description = "read-your-writes token, as on retrieve")
                                              @HeaderParam(ReadYourWrites.HEADER) String consistencyToken) {
        caller.actorFor(tenantId, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN);
        if (request == null || request.queries == null || request.queries.isEmpty()) {
            throw new BadRequestException("a JSON body with a non-empty 'queries' array is required");
        }
        if (request.queries.size() > MAX_BATCH) {
            throw new BadRequestException("a batch holds at most " + MAX_BATCH + " queries, got " + request.queries.size());
        }
        List<RetrieveCommand> commands = new ArrayList<>();
        for (RetrieveRequest query : request.queries) {
            if (query == null) {
                throw new BadRequestException("every batch item must be a retrieve request object");
            }
            if (query.partition != null && !query.partition.equals(request.partition)) {
                throw new BadRequestException("give the partition once for the whole batch, not per query");
            }
            commands.add(query.toCommand(dataPlane.retrieveLimits()).withConsistencyToken(consistencyToken));
        }
        List<RetrievalResult> results = dataPlane.view(caller, tenantId, request.partition, Roles.READER, Roles.WRITER, Roles.TENANT_ADMIN)
                .retrieveBatch(commands).stream().map(RetrievalResult::of).toList();
        return new RetrievalBatchResult(results);
    }
}
