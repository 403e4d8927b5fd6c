package io.corpora.server.tenants;

/**
 * Removes what a tenant owns outside the control-plane database (e.g. its store namespaces, caches, files).
 * Implement it as a CDI bean: {@code POST /admin/v1/tenants/{id}:purge} calls every implementation before it deletes
 * the tenant's registry rows and the tenant itself. It must be idempotent: a purge interrupted by a crash is re-run.
 */
public interface TenantPurger {

    /**
     * Called only for a tenant in state DELETING; throwing aborts the purge (the tenant stays DELETING).
     * {@code leaveStoreData}: the operator chose to remove the tenant even where its data cannot be reached (a store
     * that will not open): leave that data in place, say so in the log, and do not throw for it.
     */
    void purge(String tenantId, boolean leaveStoreData);
}
