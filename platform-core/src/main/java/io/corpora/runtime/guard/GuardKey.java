package io.corpora.runtime.guard;

import java.util.Objects;

/** Whose calls to which plugin: breakers and bulkheads exist once per key, so one tenant's failing plugin trips only its own. */
public record GuardKey(String tenant, CallKind kind, String provider) {
    public GuardKey {
        Objects.requireNonNull(tenant, "tenant");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(provider, "provider");
    }
}
