package io.corpora.server.tenants;

import io.corpora.controlplane.TenantState;

/**
 * A CDI event fired after a tenant's change is committed (admin API or tenants-config sync), so runtimes can rebuild
 * or release what they hold for the tenant (e.g. release caches when it becomes INACTIVE).
 *
 * @param state the tenant's state now, or null when the tenant was purged
 * @param change created | updated | state | purged
 */
public record TenantChanged(String tenantId, TenantState state, String change) {}
