package io.corpora.server.admin;

import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantRepository;
import io.corpora.runtime.PluginStart;
import io.corpora.server.Roles;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.health.HealthProbes;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.ArrayList;
import java.util.List;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /admin/v1/tenants/{id}/plugins}: whether each of a tenant's plugins starts on the server that answers,
 * and whether its store answers a health check — what the tenant's calls would otherwise be the first to find
 * (503 {@code plugin-unavailable}, a degraded reranking, a failed ask). The problems are the plugins' own words.
 */
@Path("/admin/v1/tenants")
@RequestScoped
@Tag(name = "admin")
@RolesAllowed(Roles.PLATFORM_ADMIN)
@SecurityRequirement(name = "jwt")
@Produces(MediaType.APPLICATION_JSON)
public class TenantPluginsResource {

    /** @param problem null when {@code up}; otherwise why, in the plugin's own words */
    public record PluginState(String field, String kind, String provider, boolean up, String problem) {}

    public record TenantPlugins(String tenant, boolean up, List<PluginState> plugins) {}

    @Inject
    TenantRepository tenants;

    @Inject
    DataPlane dataPlane;

    @Inject
    HealthProbes probes;

    @GET
    @Path(TenantsResource.TENANT_ID + "/plugins")
    @Operation(summary = "Start a tenant's plugins on this server and say which started and whether its store answers",
            description = "Each plugin of the tenant's definition not started yet on the server that answers is started, as the"
                    + " tenant's first call would (a failed start is not tried again for 5 s); the store is then asked for its"
                    + " health (2 s at most). The answer is this server's: another server may lack a file or a route the"
                    + " plugin needs. Nothing of the tenant's data is opened or read.")
    public Response plugins(@PathParam("id") String id) {
        Tenant tenant = tenants.find(id).orElse(null);
        if (tenant == null) {
            return TenantViews.notFound(id);
        }
        List<PluginState> states = new ArrayList<>();
        for (PluginStart start : dataPlane.runtimes().start(tenant.definition())) {
            String problem = start.problem();
            if (problem == null && start.field().equals("store")) {
                problem = storeHealth(tenant);
            }
            states.add(new PluginState(start.field(), start.kind().label(), start.provider(), problem == null, problem));
        }
        return Response.ok(new TenantPlugins(id, states.stream().allMatch(PluginState::up), states)).build();
    }

    /** Null when the tenant's store answers its health check in time (readiness's probe); why not otherwise. */
    private String storeHealth(Tenant tenant) {
        String failure = HealthProbes.failureOf(probes.store(dataPlane.runtimes().storeOf(tenant.definition())));
        return failure == null ? null : "health check: " + failure;
    }
}
