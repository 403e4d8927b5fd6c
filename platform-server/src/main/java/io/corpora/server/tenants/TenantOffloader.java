package io.corpora.server.tenants;

import io.corpora.controlplane.Tenant;

/**
 * Moves a tenant's store data out of (and back into) serving, for the OFFLOADED state. One CDI bean; the lifecycle calls
 * it after the tenant stopped serving (so no new call starts) and before it serves again.
 */
public interface TenantOffloader {

    /** Waits for the tenant's calls in flight, closes what it holds and offloads its data; false when its store cannot. */
    boolean offload(Tenant tenant);

    /** Brings the tenant's offloaded data back. */
    void restore(Tenant tenant);
}
