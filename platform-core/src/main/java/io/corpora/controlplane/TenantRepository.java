package io.corpora.controlplane;

import java.util.List;
import java.util.Optional;

/** The tenant registry (JPA-backed in the server). Every change is audited by the caller. */
public interface TenantRepository {

    Optional<Tenant> find(String tenantId);

    /** Tenants ordered by id, starting after {@code afterId} (null: first page). */
    List<Tenant> list(String afterId, int limit);

    /** Creates a tenant; {@link IllegalStateException} if the id exists. */
    Tenant create(TenantDefinition definition);

    /** Replaces the definition; {@link java.util.NoSuchElementException} if absent. */
    Tenant update(TenantDefinition definition);

    Tenant setState(String tenantId, TenantState state);

    /**
     * Records the fingerprint id the tenant's chunks carry (set at first ingest, changed by a re-embed migration);
     * {@link java.util.NoSuchElementException} if absent.
     */
    Tenant setActiveEmbedder(String tenantId, String fingerprintId);

    /**
     * The atomic switch of a re-embed migration, in one transaction: the definition's embedder choice and the active
     * fingerprint change together, so no reader ever sees one without the other. Throws {@link IllegalStateException}
     * when the active fingerprint is no longer {@code expectedActiveEmbedder} (someone else changed it).
     */
    Tenant switchEmbedder(String tenantId, String expectedActiveEmbedder, PluginChoice embedder, String fingerprintId);

    /**
     * The atomic switch of a store relocation, in one transaction under the tenant row's lock: the definition's store
     * choice becomes {@code target}. Throws {@link IllegalStateException} when the store is no longer {@code expected}
     * (someone else changed it); every server reads the new choice on its next request.
     */
    Tenant switchStore(String tenantId, PluginChoice expected, PluginChoice target);

    /** Removes the tenant row (its corpus must already be purged). */
    void delete(String tenantId);
}
