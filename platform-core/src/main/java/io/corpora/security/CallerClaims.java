package io.corpora.security;

import java.util.Set;

/**
 * Corpora's claims of one verified token, each of its expected JSON type ({@link ClaimReader} refuses any other).
 *
 * @param tenant    the tenant the caller is scoped to; null on platform-admin tokens, which carry none
 * @param partition the partition the token is bound to; null when it may use every partition of its tenant
 * @param groups    the roles ({@value TokenClaims#GROUPS}); empty when the claim is absent
 * @param aclGroups the ACL groups for the audience filter ({@value TokenClaims#ACL_GROUPS}); empty when absent
 */
public record CallerClaims(String tenant, String partition, Set<String> groups, Set<String> aclGroups) {
    public CallerClaims {
        groups = Set.copyOf(groups);
        aclGroups = Set.copyOf(aclGroups);
    }
}
