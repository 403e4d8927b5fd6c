package io.corpora.server.tenants;

import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;

/**
 * Vets a change to an existing tenant's definition before it is stored, for changes only the data plane can judge
 * (e.g. a new embedder on a non-empty corpus, which must go through a re-embed migration). Implement it as a CDI
 * bean: {@code PUT /admin/v1/tenants/{id}} answers 409 and tenants-config sync reports the file as not applied.
 */
public interface TenantUpdateGuard {

    /** Throws {@link IllegalStateException}, naming the reason, to refuse {@code next}. */
    void check(Tenant current, TenantDefinition next);
}
