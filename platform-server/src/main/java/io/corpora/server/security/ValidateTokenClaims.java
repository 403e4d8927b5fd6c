package io.corpora.server.security;

import io.corpora.security.ClaimReader;
import io.corpora.security.InvalidClaimException;
import io.corpora.server.rest.DataPlaneExceptionMappers;
import jakarta.annotation.Priority;
import jakarta.ws.rs.Priorities;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.PreMatching;
import jakarta.ws.rs.ext.Provider;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * Refuses a verified token whose Corpora claims have the wrong shape (401) before any route or role check runs, so an
 * admin route refuses it exactly as a data-plane route does: Liberty alone would, for instance, grant the role of a
 * {@code "groups": "platform-admin"} string that the data plane refuses.
 */
@Provider
@PreMatching
@Priority(Priorities.AUTHENTICATION)
public class ValidateTokenClaims implements ContainerRequestFilter {

    @Override
    public void filter(ContainerRequestContext request) {
        // The principal, not an injected JsonWebToken: Liberty logs an error for each injection without a verified token.
        if (!(request.getSecurityContext().getUserPrincipal() instanceof JsonWebToken token)) {
            return;
        }
        try {
            ClaimReader.readCompact(token.getRawToken());
        } catch (InvalidClaimException e) {
            request.abortWith(new DataPlaneExceptionMappers.InvalidClaims().toResponse(e));
        }
    }
}
