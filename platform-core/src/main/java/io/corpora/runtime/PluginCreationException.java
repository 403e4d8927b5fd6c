package io.corpora.runtime;

import io.corpora.plugin.loader.PluginKind;
import java.util.Objects;

/**
 * A tenant's plugin this server could not create: no provider of that name is loaded, its options are refused, a
 * {@code ${config:…}} reference is not set, or its backend would not open (a database that does not answer, a missing
 * table). The tenant cannot be served until the operator fixes it, so its callers are told that much and no more: the
 * message names the tenant, the kind and the provider; the plugin's own words, which may name hosts, paths and tables,
 * stay in the cause, for the server log.
 */
public final class PluginCreationException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String tenantId;
    private final transient PluginKind kind;
    private final String provider;
    private final String detailForOperator;

    /**
     * @param detailForOperator why, in the plugin's own words — hosts, paths and tables included, but a value that came
     *                          from a {@code ${config:…}} reference shown as the reference (it may be a secret)
     */
    public PluginCreationException(String tenantId, PluginKind kind, String provider, RuntimeException cause, String detailForOperator) {
        super("the " + kind.label() + " plugin '" + provider + "' of tenant '" + tenantId + "' could not be started on this server",
                Objects.requireNonNull(cause, "cause"));
        this.tenantId = tenantId;
        this.kind = kind;
        this.provider = provider;
        this.detailForOperator = Objects.requireNonNull(detailForOperator, "detailForOperator");
    }

    public String tenantId() {
        return tenantId;
    }

    public PluginKind kind() {
        return kind;
    }

    public String provider() {
        return provider;
    }

    /** Why, for the operator (the admin API): the plugin's own words, referenced values shown as their references. */
    public String detailForOperator() {
        return detailForOperator;
    }
}
