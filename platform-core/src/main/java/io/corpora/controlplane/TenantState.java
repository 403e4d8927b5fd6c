package io.corpora.controlplane;

/** Lifecycle of a tenant. Only ACTIVE tenants serve data-plane calls. */
public enum TenantState {
    ACTIVE,
    /** Kept with its data, but data-plane calls are refused (409) and its caches released. */
    INACTIVE,
    /** Marked for deletion (step one of two); purge removes it with its corpus. */
    DELETING
}
