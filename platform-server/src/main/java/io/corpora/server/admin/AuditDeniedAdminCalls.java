package io.corpora.server.admin;

import io.corpora.control.AuditEvent;
import io.corpora.control.AuditLog;
import io.corpora.security.TokenClaims;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.ext.Provider;
import java.security.Principal;
import java.time.Instant;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Audits admin calls refused for lack of the platform-admin role (403) as {@code admin.denied}, with the caller's
 * subject and tenant claim. Unauthenticated calls (401) are refused before the application sees them.
 */
@Provider
@ApplicationScoped
public class AuditDeniedAdminCalls implements ContainerResponseFilter {

    private static final Logger LOG = Logger.getLogger(AuditDeniedAdminCalls.class.getName());

    @Inject
    AuditLog audit;

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        String path = request.getUriInfo().getPath();
        if (response.getStatus() != 403 || !(path.startsWith("admin/") || path.startsWith("/admin/"))) {
            return;
        }
        Principal principal = request.getSecurityContext().getUserPrincipal();
        String actor = principal instanceof JsonWebToken jwt && jwt.getSubject() != null ? jwt.getSubject()
                : principal == null ? "anonymous" : principal.getName();
        String tenant = principal instanceof JsonWebToken jwt ? jwt.getClaim(TokenClaims.TENANT) : null;
        try {
            audit.append(new AuditEvent(Instant.now(), actor, null, "admin.denied", request.getMethod() + " /" + stripSlash(path), "denied",
                    tenant == null ? Map.of("reason", "requires platform-admin") : Map.of("reason", "requires platform-admin", "tokenTenant", tenant)));
        } catch (RuntimeException e) {
            // The refusal stands either way; a failing audit write must not turn a 403 into a 500.
            LOG.log(Level.WARNING, "could not audit a denied admin call to " + path, e);
        }
    }

    private static String stripSlash(String path) {
        return path.startsWith("/") ? path.substring(1) : path;
    }
}
