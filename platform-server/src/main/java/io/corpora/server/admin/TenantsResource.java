package io.corpora.server.admin;

import io.corpora.server.admin.model.TenantPage;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.TenantState;
import io.corpora.server.Roles;
import io.corpora.server.tenants.TenantLifecycle;
import io.corpora.server.tenants.TenantsConfigService;
import io.corpora.spi.Identifiers;
import io.corpora.tenancy.config.DefinitionCheck;
import io.corpora.tenancy.config.InvalidTenantDefinitionException;
import io.corpora.tenancy.config.JsonErrorLocation;
import io.corpora.tenancy.config.TenantDefinitionCodec;
import io.corpora.tenancy.config.TenantFileProblem;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.DELETE;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import jakarta.ws.rs.core.UriInfo;
import jakarta.ws.rs.core.Context;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Supplier;
import org.eclipse.microprofile.jwt.JsonWebToken;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.parameters.Parameter;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * Tenant administration, {@code platform-admin} only. Bodies are tenant documents ({@code tenants-config/tenant.schema.json});
 * every call is audited with the token's subject. Deletion is two-step: {@code DELETE} marks the tenant DELETING
 * (its data-plane calls stop), {@code POST …:purge} removes it with its corpus.
 */
@Path("/admin/v1/tenants")
@RequestScoped
@Tag(name = "admin")
@RolesAllowed(Roles.PLATFORM_ADMIN)
@SecurityRequirement(name = "jwt")
@Produces(MediaType.APPLICATION_JSON)
public class TenantsResource {

    static final String TENANT_ID = "{id: [a-z0-9][a-z0-9_-]*}";
    static final int DEFAULT_PAGE = 50;
    static final int MAX_PAGE = 200;
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REQUEST = "request";

    @Inject
    TenantLifecycle lifecycle;

    @Inject
    TenantRepository tenants;

    @Inject
    TenantsConfigService tenantsConfig;

    @Inject
    DefinitionCheck definitionCheck;

    @Inject
    JsonWebToken caller;

    @Context
    UriInfo uri;

    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Create a tenant from a tenant document")
    public Response create(String body) {
        JsonNode document;
        TenantDefinition definition;
        try {
            document = parse(body);
            definition = tenantsConfig.validator().parse(REQUEST, document);
            definitionCheck.require(REQUEST, definition);
        } catch (InvalidTenantDefinitionException e) {
            lifecycle.recordRefusal(actor(), idIn(body), "tenant.create", e.getMessage());
            return TenantViews.invalid(e.problems());
        }
        TenantDefinition toCreate = definition;
        return call(definition.id(), () -> {
            Tenant created = lifecycle.create(actor(), toCreate);
            return Response.created(uri.getAbsolutePathBuilder().path(created.id()).build()).entity(TenantViews.tenant(created)).build();
        });
    }

    @GET
    @Operation(summary = "List tenants by id, a page at a time")
    public Response list(@QueryParam("after") String after, @QueryParam("limit") Integer limit) {
        int size = limit == null ? DEFAULT_PAGE : limit;
        if (size < 1 || size > MAX_PAGE) {
            return TenantViews.badRequest("limit must be between 1 and " + MAX_PAGE + ", got " + size);
        }
        List<Tenant> page = tenants.list(after == null || after.isBlank() ? null : after, size + 1);
        boolean more = page.size() > size;
        List<Tenant> shown = more ? page.subList(0, size) : page;
        return Response.ok(new TenantPage(shown.stream().map(TenantViews::tenant).toList(), more ? shown.get(shown.size() - 1).id() : null)).build();
    }

    @GET
    @Path(TENANT_ID)
    @Operation(summary = "Read a tenant")
    public Response get(@PathParam("id") String id) {
        return tenants.find(id).map(t -> Response.ok(TenantViews.tenant(t)).build()).orElseGet(() -> TenantViews.notFound(id));
    }

    @PUT
    @Path(TENANT_ID)
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Replace a tenant's definition (a document without state keeps the current state)")
    public Response update(@PathParam("id") String id, String body) {
        TenantDefinition definition;
        boolean keepState;
        try {
            JsonNode document = parse(body);
            if (document instanceof ObjectNode object) {
                JsonNode bodyId = object.get("id");
                if (bodyId == null || bodyId.isNull()) {
                    object.put("id", id);
                } else if (!id.equals(bodyId.asText())) {
                    throw new InvalidTenantDefinitionException(List.of(new TenantFileProblem(REQUEST, "/id",
                            "id '" + bodyId.asText() + "' differs from the tenant in the path ('" + id + "'); a tenant's id cannot change")));
                }
            }
            definition = tenantsConfig.validator().parse(REQUEST, document);
            definitionCheck.require(REQUEST, definition);
            keepState = !TenantDefinitionCodec.declaresState(document);
        } catch (InvalidTenantDefinitionException e) {
            lifecycle.recordRefusal(actor(), id, "tenant.update", e.getMessage());
            return TenantViews.invalid(e.problems());
        }
        TenantDefinition toUpdate = definition;
        return call(id, () -> Response.ok(TenantViews.tenant(lifecycle.update(actor(), toUpdate, keepState))).build());
    }

    @POST
    @Path(TENANT_ID + "/state")
    @Consumes(MediaType.APPLICATION_JSON)
    @Operation(summary = "Set a tenant ACTIVE, INACTIVE or OFFLOADED (store data moved aside; where the store supports it)")
    public Response setState(@PathParam("id") String id, String body) {
        TenantState state;
        try {
            JsonNode value = parse(body).get("state");
            if (value == null || !value.isTextual()) {
                throw new IllegalArgumentException("body must be {\"state\": \"ACTIVE\" | \"INACTIVE\" | \"OFFLOADED\"}");
            }
            state = TenantState.valueOf(value.asText().toUpperCase(Locale.ROOT));
        } catch (InvalidTenantDefinitionException e) {
            return TenantViews.invalid(e.problems());
        } catch (IllegalArgumentException e) {
            String reason = e.getMessage().startsWith("No enum constant") ? "state must be ACTIVE, INACTIVE or OFFLOADED" : e.getMessage();
            lifecycle.recordRefusal(actor(), id, "tenant.state", reason);
            return TenantViews.badRequest(reason);
        }
        return call(id, () -> Response.ok(TenantViews.tenant(lifecycle.setState(actor(), id, state))).build());
    }

    @DELETE
    @Path(TENANT_ID)
    @Operation(summary = "Step one of deletion: mark the tenant DELETING (data-plane calls stop; nothing is removed yet)")
    public Response markDeleting(@PathParam("id") String id) {
        return call(id, () -> Response.accepted(TenantViews.tenant(lifecycle.markDeleting(actor(), id))).build());
    }

    @POST
    @Path(TENANT_ID + ":purge")
    @Operation(summary = "Step two of deletion: remove a DELETING tenant with its corpus",
            description = "Refused with 503 store-unavailable, the tenant staying DELETING, while its store cannot be opened on this"
                    + " server; purge again once it opens, or with leaveStoreData=true to remove the tenant all the same and leave what"
                    + " that store holds of it (the server log names the store).")
    public Response purge(@PathParam("id") String id, @Parameter(description = "remove the tenant even if its store cannot be opened,"
            + " leaving that store's data of the tenant in place") @QueryParam("leaveStoreData") boolean leaveStoreData) {
        return call(id, () -> {
            int documents = lifecycle.purge(actor(), id, leaveStoreData);
            return Response.ok(Map.of("tenant", id, "purged", true, "documents", documents)).build();
        });
    }

    private Response call(String id, Supplier<Response> action) {
        try {
            return action.get();
        } catch (NoSuchElementException e) {
            return TenantViews.notFound(id);
        } catch (TenantLifecycle.IllegalTenantTransition e) {
            return TenantViews.conflict(e.getMessage());
        } catch (IllegalStateException e) {
            return TenantViews.conflict(e.getMessage());
        } catch (IllegalArgumentException e) {
            return TenantViews.badRequest(e.getMessage());
        }
    }

    private String actor() {
        return TenantViews.actor(caller);
    }

    private static JsonNode parse(String body) {
        if (body == null || body.isBlank()) {
            throw new InvalidTenantDefinitionException(List.of(new TenantFileProblem(REQUEST, "", "the request body is empty")));
        }
        try {
            return JSON.readTree(body);
        } catch (JsonProcessingException e) {
            throw new InvalidTenantDefinitionException(List.of(new TenantFileProblem(REQUEST, "",
                    "not valid JSON" + JsonErrorLocation.of(e) + ": " + e.getOriginalMessage())));
        }
    }

    /** The tenant id a refused body claims, when it is a usable id; for the audit entry only. */
    private static String idIn(String body) {
        try {
            JsonNode id = JSON.readTree(body).path("id");
            return id.isTextual() && Identifiers.NAMESPACE_ID.matcher(id.asText()).matches() ? id.asText() : null;
        } catch (JsonProcessingException | RuntimeException e) {
            return null;
        }
    }
}
