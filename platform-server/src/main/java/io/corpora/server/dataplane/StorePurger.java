package io.corpora.server.dataplane;

import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantState;
import io.corpora.runtime.PluginCreationException;
import io.corpora.runtime.TenantStorePurge;
import io.corpora.server.rest.Incidents;
import io.corpora.server.rest.ProblemException;
import io.corpora.server.tenants.TenantChanged;
import io.corpora.server.tenants.TenantPurger;
import io.corpora.spi.Namespace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.logging.Logger;

/**
 * Deletes a purged tenant's data from every store instance this server runs (its current store, and any other whose
 * location may hold chunks of it written under an earlier configuration), including partitions dropped from its
 * definition; releases a tenant's cached runtime whenever its definition or state changes.
 */
@ApplicationScoped
public class StorePurger implements TenantPurger {

    private static final Logger LOG = Logger.getLogger(StorePurger.class.getName());

    @Inject
    DataPlane dataPlane;

    @Override
    public void purge(String tenantId, boolean leaveStoreData) {
        Tenant tenant = dataPlane.tenants().find(tenantId).orElse(null);
        if (tenant == null) {
            return; // already gone: purging is idempotent
        }
        Set<String> partitions = new TreeSet<>(tenant.definition().access().partitions());
        partitions.addAll(dataPlane.registry().stats(tenantId).documentsByPartition().keySet());
        try {
            dataPlane.runtimes().storeOf(tenant.definition()); // its current store is among the instances below; nothing else is opened
        } catch (PluginCreationException e) {
            String incident = Incidents.record(LOG, "the store of tenant " + tenantId + " (" + tenant.definition().store().provider()
                    + ") cannot be opened to purge it" + (leaveStoreData ? "; purged without it (leaveStoreData): its data of the tenant,"
                    + " if any, stays there — remove by hand the tenant's namespaces (its default partition and " + partitions + ")" : ""), e.getCause());
            if (!leaveStoreData) {
                throw new ProblemException(503, "store-unavailable", "Service unavailable", "tenant '" + tenantId + "' was not purged and"
                        + " stays DELETING: its " + e.kind().label() + " plugin '" + e.provider() + "' could not be started on this server"
                        + " (incident " + incident + " in the server log). Purge again once it opens, or with ?leaveStoreData=true to"
                        + " remove the tenant and leave what that store holds of it.", Map.of("incident", incident));
            }
        }
        List<Namespace> oneByOne = TenantStorePurge.purge(tenantId, partitions, dataPlane.runtimes().stores().values());
        dataPlane.runtimes().forget(tenantId);
        LOG.info("purged the store data of tenant " + tenantId + " from " + dataPlane.runtimes().stores().keySet()
                + (oneByOne.isEmpty() ? "" : " (namespace by namespace: " + oneByOne + ")"));
    }

    /** A definition change drops the cached runtime; a tenant that stops serving closes everything it holds open. */
    void onTenantChanged(@Observes TenantChanged change) {
        if (change.state() == null || change.state() == TenantState.ACTIVE) {
            dataPlane.runtimes().release(change.tenantId());
        } else {
            dataPlane.runtimes().deactivate(change.tenantId());
        }
    }
}
