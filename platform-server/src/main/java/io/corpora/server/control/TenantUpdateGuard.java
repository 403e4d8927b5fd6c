package io.corpora.server.control;

import io.corpora.control.Tenant;
import io.corpora.control.TenantDefinition;

/**
 * Vets a change to an existing tenant's definition before it is stored, for changes only the data plane can judge
 * (e.g. a new embedder on a non-empty corpus, which must go through a re-embed migration). Implement it as a CDI
 * bean: {@code PUT /admin/v1/tenants/{id}} answers 409 and tenants-config sync reports the file as not applied.
 */
public interface TenantUpdateGuard {

    /** Throws {@link IllegalStateException}, naming the reason, to refuse {@code next}. */
    void check(Tenant current, TenantDefinition next);
}
