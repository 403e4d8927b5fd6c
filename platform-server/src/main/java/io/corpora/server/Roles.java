package io.corpora.server;

/** The roles a token can carry in its {@code groups} claim. */
public final class Roles {
    /** Operates the deployment: tenants, plugins, audit. Not scoped to a tenant. */
    public static final String PLATFORM_ADMIN = "platform-admin";
    /** Administers one tenant (its configuration, documents and console). */
    public static final String TENANT_ADMIN = "tenant-admin";
    /** Ingests and deletes documents of one tenant. */
    public static final String WRITER = "writer";
    /** Retrieves from one tenant. */
    public static final String READER = "reader";

    private Roles() {}
}
