package io.corpora.spi.filter;

import io.corpora.spi.Identifiers;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Who is retrieving, as established from a verified token: never from a request body.
 *
 * @param tenant  the tenant the token is scoped to
 * @param subject the token subject ({@code sub})
 * @param roles   the token's roles (e.g. {@code reader})
 * @param groups  the token's groups
 * @param claims  other verified claims, for hooks that need them
 */
public record Actor(String tenant, String subject, Set<String> roles, Set<String> groups, Map<String, Object> claims) {
    public Actor {
        Identifiers.requireNamespaceId("tenant", tenant);
        Objects.requireNonNull(subject, "subject");
        roles = roles == null ? Set.of() : Set.copyOf(roles);
        groups = groups == null ? Set.of() : Set.copyOf(groups);
        claims = claims == null ? Map.of() : Map.copyOf(claims);
    }
}
