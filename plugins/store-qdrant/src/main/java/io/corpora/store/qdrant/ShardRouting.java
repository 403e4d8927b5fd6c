package io.corpora.store.qdrant;

import io.qdrant.client.ShardKeyFactory;
import io.qdrant.client.grpc.Collections.ShardKey;
import io.qdrant.client.grpc.Points.ShardKeySelector;
import java.util.Optional;
import java.util.Set;

/**
 * Tiered multitenancy (Qdrant ≥ 1.16): in a collection with custom sharding, small tenants share the fallback shard and
 * each dedicated tenant has a shard whose key is its id. Every request names the tenant as its target and the fallback
 * shard as the fallback, so Qdrant routes it to the tenant's shard when that exists and is active, else to the shared
 * one: reads and writes of one tenant always land together, whether or not it has been promoted yet. The fallback's
 * key starts with {@code _}, which no tenant id can, so it never names a tenant's shard.
 */
final class ShardRouting {

    static final String FALLBACK_KEY = "_shared";

    private static final ShardRouting NONE = new ShardRouting(false, Set.of());

    private final boolean enabled;
    private final Set<String> dedicatedTenants;

    private ShardRouting(boolean enabled, Set<String> dedicatedTenants) {
        this.enabled = enabled;
        this.dedicatedTenants = Set.copyOf(dedicatedTenants);
    }

    static ShardRouting none() {
        return NONE;
    }

    static ShardRouting tiered(Set<String> dedicatedTenants) {
        return new ShardRouting(true, dedicatedTenants);
    }

    /** Whether collections are created with custom sharding. */
    boolean enabled() {
        return enabled;
    }

    /** The tenants that get a shard of their own when their collection is created (or as soon as the store sees them empty). */
    Set<String> dedicatedTenants() {
        return dedicatedTenants;
    }

    boolean isDedicated(String tenant) {
        return dedicatedTenants.contains(tenant);
    }

    /** The selector of every request for this tenant; empty when the collection is not custom-sharded. */
    Optional<ShardKeySelector> selectorFor(String tenant) {
        if (!enabled) {
            return Optional.empty();
        }
        return Optional.of(ShardKeySelector.newBuilder().addShardKeys(ShardKeyFactory.shardKey(tenant)).setFallback(fallback()).build());
    }

    /** Only the shared shard: where a not-yet-promoted dedicated tenant's chunks are counted before its shard is made. */
    Optional<ShardKeySelector> fallbackOnly() {
        if (!enabled) {
            return Optional.empty();
        }
        return Optional.of(ShardKeySelector.newBuilder().addShardKeys(fallback()).build());
    }

    static ShardKey fallback() {
        return ShardKeyFactory.shardKey(FALLBACK_KEY);
    }
}
