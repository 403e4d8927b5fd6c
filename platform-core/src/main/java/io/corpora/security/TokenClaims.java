package io.corpora.security;

/** The JWT claims Corpora reads, in one place so the server, the CLI and the docs agree. */
public final class TokenClaims {
    /** The tenant the caller is scoped to. Absent only on platform-admin tokens. */
    public static final String TENANT = "tenant";
    /** The caller's roles (MicroProfile JWT maps them to Jakarta roles). */
    public static final String GROUPS = "groups";
    /** Extra ACL groups for the audience filter, e.g. {@code ["legal", "emea"]}. */
    public static final String ACL_GROUPS = "acl_groups";
    /** Optional partition the token is bound to inside its tenant. */
    public static final String PARTITION = "partition";

    public static final String DEV_ISSUER = "https://corpora.dev/dev-issuer";
    public static final String AUDIENCE = "corpora";

    private TokenClaims() {}
}
