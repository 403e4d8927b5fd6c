package io.corpora.server.admin;

import io.corpora.controlplane.TenantState;
import io.corpora.server.Roles;
import io.corpora.server.dataplane.DataPlane;
import io.corpora.server.metrics.FleetTraffic;
import io.corpora.server.persistence.JpaFleetQuery;
import io.corpora.tenancy.TenantTraffic;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/**
 * {@code GET /admin/v1/fleet?sort=chunks&order=desc&page=0&size=50&state=ACTIVE&q=acme}: every tenant's state, size, quota use,
 * whether it is in the working set, and its request rate and p95 latency over the last minute (the server's own request
 * timings). Sizes are sorted and paginated by the control-plane database; traffic is looked up for the page only.
 */
@Path("/admin/v1/fleet")
@RequestScoped
@Tag(name = "admin")
@RolesAllowed(Roles.PLATFORM_ADMIN)
@SecurityRequirement(name = "jwt")
@Produces(MediaType.APPLICATION_JSON)
public class FleetResource {

    static final int DEFAULT_SIZE = 50;
    static final int MAX_SIZE = 200;

    /** One page of the fleet. */
    public record FleetPage(List<FleetTenant> tenants, long total, int page, int size, String sort, String order,
                            int workingSet, int workingSetMax) {}

    /**
     * One tenant. {@code requestsPerMinute} and {@code p95Millis} are null (unknown, not 0) without a request in the last
     * minute and whenever the tenant is not {@code open}: its traffic window is dropped when it leaves the working set.
     */
    public record FleetTenant(String id, String displayName, String state, boolean open, long documents, long chunks, long bytes,
                              QuotaUse documentsQuota, QuotaUse chunksQuota, QuotaUse bytesQuota,
                              Double requestsPerMinute, Double p95Millis) {}

    /** Use of one quota: {@code fraction} = used / limit. */
    public record QuotaUse(long used, long limit, double fraction) {
        static QuotaUse of(long used, long limit) {
            return new QuotaUse(used, limit, limit <= 0 ? 0 : (double) used / limit);
        }
    }

    @Inject
    JpaFleetQuery fleet;

    @Inject
    FleetTraffic traffic;

    @Inject
    DataPlane dataPlane;

    @GET
    @Operation(summary = "The fleet: every tenant's state, size, quota use, request rate and p95 latency; sorted and paginated",
            description = "sort: id, state, created, documents, chunks, bytes or quota (the highest of the three quota fractions); order: asc or desc;"
                    + " page from 0; size 1.." + MAX_SIZE + "; state: only tenants in that state; q: only ids starting with it."
                    + " requestsPerMinute and p95Millis are absent (unknown, not 0) for a tenant without a request in the last minute"
                    + " or outside the working set (open false): its traffic is forgotten when it leaves the set.")
    public Response list(@QueryParam("sort") String sort, @QueryParam("order") String order, @QueryParam("page") Integer page,
                         @QueryParam("size") Integer size, @QueryParam("state") String state, @QueryParam("q") String q) {
        String by = sort == null || sort.isBlank() ? "id" : sort;
        if (!JpaFleetQuery.SORTS.containsKey(by)) {
            return TenantViews.badRequest("sort must be one of " + JpaFleetQuery.SORTS.keySet().stream().sorted().toList() + ", got '" + by + "'");
        }
        String direction = order == null || order.isBlank() ? (by.equals("id") || by.equals("state") ? "asc" : "desc") : order.toLowerCase(Locale.ROOT);
        if (!direction.equals("asc") && !direction.equals("desc")) {
            return TenantViews.badRequest("order must be asc or desc, got '" + order + "'");
        }
        int pageSize = size == null ? DEFAULT_SIZE : size;
        if (pageSize < 1 || pageSize > MAX_SIZE) {
            return TenantViews.badRequest("size must be between 1 and " + MAX_SIZE + ", got " + pageSize);
        }
        int pageNumber = page == null ? 0 : page;
        if (pageNumber < 0 || (long) pageNumber * pageSize > Integer.MAX_VALUE) {
            return TenantViews.badRequest("page must be between 0 and " + (Integer.MAX_VALUE / pageSize) + ", got " + pageNumber);
        }
        String stateFilter = null;
        if (state != null && !state.isBlank()) {
            try {
                stateFilter = TenantState.valueOf(state.toUpperCase(Locale.ROOT)).name();
            } catch (IllegalArgumentException e) {
                return TenantViews.badRequest("state must be one of " + List.of(TenantState.values()) + ", got '" + state + "'");
            }
        }
        String prefix = q == null || q.isBlank() ? null : q.trim();
        if (prefix != null && prefix.length() > 64) {
            return TenantViews.badRequest("q is a tenant id prefix of at most 64 characters");
        }
        var workingSet = dataPlane.runtimes().workingSet();
        List<FleetTenant> tenants = fleet.page(by, direction.equals("desc"), stateFilter, prefix, pageNumber * pageSize, pageSize).stream()
                .map(row -> {
                    Optional<TenantTraffic.Summary> recent = traffic.traffic().summary(row.id());
                    return new FleetTenant(row.id(), row.displayName(), row.state(), workingSet.isOpen(row.id()), row.documents(), row.chunks(),
                            row.bytes(), QuotaUse.of(row.documents(), row.maxDocuments()), QuotaUse.of(row.chunks(), row.maxChunks()),
                            QuotaUse.of(row.bytes(), row.maxBytes()), recent.map(TenantTraffic.Summary::requestsPerMinute).orElse(null),
                            recent.map(TenantTraffic.Summary::p95Millis).orElse(null));
                }).toList();
        return Response.ok(new FleetPage(tenants, fleet.count(stateFilter, prefix), pageNumber, pageSize, by, direction, workingSet.size(),
                workingSet.max())).build();
    }
}
