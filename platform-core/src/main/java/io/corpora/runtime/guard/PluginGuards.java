package io.corpora.runtime.guard;

import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The guards of all tenants, one per (tenant, kind, provider), created on first use with the policy of their kind.
 * Guards outlive runtime rebuilds (a config edit does not reset a tenant's open breaker) and are dropped with the tenant.
 */
public final class PluginGuards {

    private final Map<CallKind, GuardPolicy> policies = new EnumMap<>(CallKind.class);
    private final GuardContext context;
    private final Map<GuardKey, PluginCallGuard> guards = new ConcurrentHashMap<>();

    public PluginGuards(Function<CallKind, GuardPolicy> policies, GuardContext context) {
        for (CallKind kind : CallKind.values()) {
            this.policies.put(kind, policies.apply(kind));
        }
        this.context = context;
    }

    public PluginCallGuard guard(String tenant, CallKind kind, String provider) {
        return guards.computeIfAbsent(new GuardKey(tenant, kind, provider), key -> new PluginCallGuard(key, policies.get(kind), context));
    }

    /** The executor guarded calls run on (also the one that waits for a guarded stream, see {@link GuardedGenerator}). */
    public java.util.concurrent.Executor executor() {
        return context.executor();
    }

    public GuardPolicy policy(CallKind kind) {
        return policies.get(kind);
    }

    /** Forgets a tenant's breakers and bulkheads (a deleted tenant); a running call keeps its slot until it ends. */
    public void forget(String tenant) {
        guards.keySet().removeIf(key -> key.tenant().equals(tenant));
    }
}
