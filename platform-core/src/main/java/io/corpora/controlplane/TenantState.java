package io.corpora.controlplane;

/** Lifecycle of a tenant. Only ACTIVE tenants serve data-plane calls; only ACTIVE ones hold resources open. */
public enum TenantState {
    ACTIVE,
    /** Kept with its data, but data-plane calls are refused (409) and its caches released. */
    INACTIVE,
    /**
     * Refused like INACTIVE, nothing held open, and its store data moved to the store's offload location (Lucene: one
     * compressed archive per tenant); leaving this state restores it. Only where the tenant's store supports it.
     */
    OFFLOADED,
    /** Marked for deletion (step one of two); purge removes it with its corpus. */
    DELETING
}
