package io.corpora.runtime;

/**
 * Told when a tenant leaves the working set (evicted as least recently used, idle past the timeout, deactivated,
 * offloaded, restored or deleted), once everything it held is closed and no call on it is in flight. A server drops
 * what it keeps per tenant here — metric series, traffic windows — so that state stays bounded by the working set, not
 * by the number of provisioned tenants; it comes back with the tenant's next call.
 */
@FunctionalInterface
public interface TenantReleaseListener {

    void released(String tenantId);
}
