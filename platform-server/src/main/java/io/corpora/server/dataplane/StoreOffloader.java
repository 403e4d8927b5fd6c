package io.corpora.server.dataplane;

import io.corpora.controlplane.Tenant;
import io.corpora.server.tenants.TenantOffloader;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/** The OFFLOADED state on the tenant's store, through the working set (so no call of the tenant runs meanwhile). */
@ApplicationScoped
public class StoreOffloader implements TenantOffloader {

    @Inject
    DataPlane dataPlane;

    @Override
    public boolean offload(Tenant tenant) {
        return dataPlane.runtimes().offload(tenant.definition());
    }

    @Override
    public void restore(Tenant tenant) {
        dataPlane.runtimes().restore(tenant.definition());
    }
}
