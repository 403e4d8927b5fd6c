package io.corpora.server.security;

import io.corpora.security.TokenClaims;
import io.corpora.server.Roles;
import io.corpora.spi.Identifiers;
import io.corpora.spi.filter.Actor;
import jakarta.enterprise.context.RequestScoped;
import jakarta.inject.Inject;
import jakarta.json.JsonArray;
import jakarta.json.JsonString;
import jakarta.json.JsonValue;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import org.eclipse.microprofile.jwt.JsonWebToken;

/**
 * The caller as established by the verified JWT. The tenant comes from the {@value TokenClaims#TENANT} claim only:
 * a path naming another tenant is refused with 403 before anything is looked up, so the answer never reveals whether
 * that tenant exists.
 */
@RequestScoped
public class CallerScope {

    @Inject
    JsonWebToken token;

    /** The actor for a data-plane call on {@code pathTenant}, with the role checked; 403 otherwise. */
    public Actor actorFor(String pathTenant, String... anyOfRoles) {
        String tenant = claimString(TokenClaims.TENANT);
        if (tenant == null) {
            throw new ForbiddenException("the token carries no '" + TokenClaims.TENANT + "' claim, so it cannot act on tenant data");
        }
        if (!tenant.equals(pathTenant)) {
            throw new ForbiddenException("the token is scoped to another tenant than the one in the path");
        }
        Identifiers.requireNamespaceId("tenant", tenant);
        Set<String> roles = token.getGroups() == null ? Set.of() : Set.copyOf(token.getGroups());
        if (anyOfRoles.length > 0 && roles.stream().noneMatch(Set.of(anyOfRoles)::contains)) {
            throw new ForbiddenException("this operation needs one of the roles " + String.join(", ", anyOfRoles));
        }
        return new Actor(tenant, token.getSubject() == null ? token.getName() : token.getSubject(), roles, claimStrings(TokenClaims.ACL_GROUPS),
                Map.of());
    }

    /** The partition the token is bound to, or null when it may use any of its tenant's partitions. */
    public String boundPartition() {
        return claimString(TokenClaims.PARTITION);
    }

    public String subject() {
        return token == null || token.getSubject() == null ? "anonymous" : token.getSubject();
    }

    public boolean hasRole(String role) {
        return token != null && token.getGroups() != null && token.getGroups().contains(role);
    }

    private String claimString(String name) {
        Object value = token.getClaim(name);
        if (value instanceof JsonString s) {
            return s.getString();
        }
        return value instanceof String s ? s : null;
    }

    private Set<String> claimStrings(String name) {
        Object value = token.getClaim(name);
        Set<String> values = new LinkedHashSet<>();
        if (value instanceof JsonArray array) {
            for (JsonValue item : array) {
                if (item instanceof JsonString s) {
                    values.add(s.getString());
                }
            }
        } else if (value instanceof java.util.Collection<?> list) { // Liberty hands custom array claims over as a List
            list.forEach(v -> values.add(String.valueOf(v)));
        } else if (value instanceof String s) {
            values.add(s);
        }
        return values;
    }

}
