package io.corpora.server.security;

import io.corpora.security.CallerClaims;
import io.corpora.security.ClaimReader;
import io.corpora.security.InvalidClaimException;
import io.corpora.security.TokenClaims;
import io.corpora.spi.filter.Actor;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The caller as established by the verified JWT. The tenant comes from the {@value TokenClaims#TENANT} claim only:
 * a path naming another tenant is refused with 403 before anything is looked up, so the answer never reveals whether
 * that tenant exists. Corpora's claims are read once per request by {@link ClaimReader}, which refuses a token whose
 * claims have the wrong shape ({@link InvalidClaimException}, 401); {@link ValidateTokenClaims} does that before any
 * route runs, so admin routes refuse such tokens too.
 */
@RequestScoped
public class CallerScope {

    @Inject
    JsonWebToken token;

    private CallerClaims claims;

    /** The actor for a data-plane call on {@code pathTenant}, with the role checked; 403 otherwise, 401 for malformed claims. */
    public Actor actorFor(String pathTenant, String... anyOfRoles) {
        CallerClaims caller = claims();
        if (caller.tenant() == null) {
            throw new ForbiddenException("the token carries no '" + TokenClaims.TENANT + "' claim, so it cannot act on tenant data");
        }
        if (!caller.tenant().equals(pathTenant)) {
            throw new ForbiddenException("the token is scoped to another tenant than the one in the path");
        }
        if (anyOfRoles.length > 0 && caller.groups().stream().noneMatch(Set.of(anyOfRoles)::contains)) {
            throw new ForbiddenException("this operation needs one of the roles " + String.join(", ", anyOfRoles));
        }
        return new Actor(caller.tenant(), token.getSubject() == null ? token.getName() : token.getSubject(), caller.groups(),
                caller.aclGroups(), Map.of());
    }

    /** The tenant the token acts on (routes without a tenant in the path, e.g. MCP); 403 when it names none. */
    public String tenant() {
        String tenant = claims().tenant();
        if (tenant == null) {
            throw new ForbiddenException("the token carries no '" + TokenClaims.TENANT + "' claim, so it cannot act on tenant data");
        }
        return tenant;
    }

    /** The partition the token is bound to, or null when it may use any of its tenant's partitions. */
    public String boundPartition() {
        return claims().partition();
    }

    /** Corpora's claims of the verified token; {@link InvalidClaimException} when one has the wrong shape. */
    private CallerClaims claims() {
        if (claims == null) {
            if (token == null || token.getRawToken() == null) {
                throw new ForbiddenException("the request carries no verified token");
            }
            claims = ClaimReader.readCompact(token.getRawToken());
        }
        return claims;
    }
}
