package io.corpora.server.admin;

import io.corpora.server.admin.model.AuditEvents;
import io.corpora.controlplane.AuditLog;
import io.corpora.server.Roles;
import io.corpora.server.persistence.JpaAuditLog;
import jakarta.annotation.security.RolesAllowed;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.security.SecurityRequirement;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** {@code GET /admin/v1/audit?tenant=&action=&since=&limit=}: the audit log, newest first. platform-admin only. */
@Path("/admin/v1/audit")
@RequestScoped
@Tag(name = "admin")
public class AuditResource {

    static final int DEFAULT_LIMIT = 100;

    @Inject
    AuditLog audit;

    @GET
    @Produces(MediaType.APPLICATION_JSON)
    @RolesAllowed(Roles.PLATFORM_ADMIN)
    @SecurityRequirement(name = "jwt")
    @Operation(summary = "Query the audit log (every parameter optional; since is an ISO-8601 instant)")
    public Response query(@QueryParam("tenant") String tenant, @QueryParam("action") String action, @QueryParam("since") String since,
                          @QueryParam("limit") Integer limit) {
        int size = limit == null ? DEFAULT_LIMIT : limit;
        if (size < 1 || size > JpaAuditLog.MAX_LIMIT) {
            return TenantViews.badRequest("limit must be between 1 and " + JpaAuditLog.MAX_LIMIT + ", got " + size);
        }
        Instant from = null;
        if (since != null && !since.isBlank()) {
            try {
                from = Instant.parse(since);
            } catch (DateTimeParseException e) {
                return TenantViews.badRequest("since must be an ISO-8601 instant such as 2026-01-31T12:00:00Z, got '" + since + "'");
            }
        }
        var events = audit.query(blankToNull(tenant), blankToNull(action), from, size);
        return Response.ok(new AuditEvents(events.stream().map(AuditEvents.Event::of).toList())).build();
    }

    private static String blankToNull(String value) {
        return value == null || value.isBlank() ? null : value;
    }
}
