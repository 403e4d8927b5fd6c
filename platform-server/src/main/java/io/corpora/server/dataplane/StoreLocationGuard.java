package io.corpora.server.dataplane;

import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.JobKind;
import io.corpora.runtime.StoreLocation;
import io.corpora.server.tenants.TenantUpdateGuard;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;

/**
 * Refuses a tenant change that would move a non-empty tenant to another store location (another provider, or another
 * value of a location option such as a pgvector {@code table} or a Lucene {@code directory}): the tenant would read an
 * empty index while its registry lists its documents. Other store options change freely: the data stays where it is.
 */
@ApplicationScoped
public class StoreLocationGuard implements TenantUpdateGuard {

    @Inject
    DataPlane dataPlane;

    @Override
    public void check(Tenant current, TenantDefinition next) {
        if (current.definition().store().equals(next.store())) {
            return;
        }
        dataPlane.jobs().unfinishedMigration(current.id()).filter(job -> job.kind() == JobKind.RELOCATE).ifPresent(job -> {
            throw new IllegalStateException("tenant '" + current.id() + "' is being relocated by job " + job.id()
                    + "; its store configuration cannot change until that relocation ends");
        });
        StoreLocation before = dataPlane.runtimes().storeLocation(current.definition().store());
        StoreLocation after = dataPlane.runtimes().storeLocation(next.store());
        long documents = dataPlane.registry().stats(current.id()).documentsByPartition().values().stream().mapToLong(Long::longValue).sum();
        before.refusalToMove(current.id(), after, documents).ifPresent(reason -> {
            throw new IllegalStateException(reason);
        });
    }
}
