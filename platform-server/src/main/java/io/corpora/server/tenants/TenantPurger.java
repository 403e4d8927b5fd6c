package io.corpora.server.tenants;

/**
 * Removes what a tenant owns outside the control-plane database (e.g. its store namespaces, caches, files).
 * Implement it as a CDI bean: {@code POST /admin/v1/tenants/{id}:purge} calls every implementation before it deletes
 * the tenant's registry rows and the tenant itself. It must be idempotent: a purge interrupted by a crash is re-run.
 */
public interface TenantPurger {

    /** Called only for a tenant in state DELETING; throwing aborts the purge (the tenant stays DELETING). */
    void purge(String tenantId);
}
