package io.corpora.server.dataplane;

import io.corpora.control.Tenant;
import io.corpora.runtime.TenantRuntime;
import io.corpora.server.control.TenantChanged;
import io.corpora.server.control.TenantPurger;
import io.corpora.spi.Namespace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.ArrayList;
import java.util.List;
import java.util.logging.Logger;

/**
 * Deletes a purged tenant's store namespaces (its default partition and every declared one), and releases a tenant's
 * cached runtime whenever its definition or state changes.
 */
@ApplicationScoped
public class StorePurger implements TenantPurger {

    private static final Logger LOG = Logger.getLogger(StorePurger.class.getName());

    @Inject
    DataPlane dataPlane;

    @Override
    public void purge(String tenantId) {
        Tenant tenant = dataPlane.tenants().find(tenantId).orElse(null);
        if (tenant == null) {
            return; // already gone: purging is idempotent
        }
        TenantRuntime runtime = dataPlane.runtimes().runtime(tenant.definition());
        List<Namespace> namespaces = new ArrayList<>();
        namespaces.add(Namespace.of(tenantId));
        tenant.definition().access().partitions().forEach(p -> namespaces.add(Namespace.of(tenantId, p)));
        for (Namespace namespace : namespaces) {
            runtime.store().deleteNamespace(namespace);
        }
        dataPlane.runtimes().forget(tenantId);
        LOG.info("purged store namespaces " + namespaces + " of tenant " + tenantId);
    }

    void onTenantChanged(@Observes TenantChanged change) {
        dataPlane.runtimes().release(change.tenantId());
    }
}
