package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Identifiers;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.qdrant.client.grpc.Points.ShardKeySelector;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Tiered multitenancy as Qdrant documents it (https://qdrant.tech/documentation/manage-data/multitenancy/#tiered-multitenancy):
 * a Shard Key Selector with "target shard - name of the tenant's dedicated Shard (which may or may not exist)" and "fallback
 * shard - name of the shared Fallback Shard"; "If the target Shard exists and active, the request will be routed to it. If
 * the target Shard does not exist, the request will be routed to the fallback Shard"; and "filter match value should always
 * match the target Shard Key".
 */
class ShardRoutingTest {

    @Test
    void everyRequestTargetsTheTenantsShardWithTheSharedShardAsFallback() {
        ShardRouting routing = ShardRouting.tiered(Set.of("bigco"));
        for (String tenant : new String[] {"bigco", "smallco"}) {
            ShardKeySelector selector = routing.selectorFor(tenant).orElseThrow();
            assertEquals(1, selector.getShardKeysCount());
            assertEquals(tenant, selector.getShardKeys(0).getKeyword(), "the target is the tenant, dedicated or not: Qdrant falls back");
            assertEquals(ShardRouting.FALLBACK_KEY, selector.getFallback().getKeyword());
        }
        assertTrue(routing.isDedicated("bigco"));
        assertFalse(routing.isDedicated("smallco"));
        assertEquals(ShardRouting.FALLBACK_KEY, routing.fallbackOnly().orElseThrow().getShardKeys(0).getKeyword());
        assertFalse(routing.fallbackOnly().orElseThrow().hasFallback());
    }

    /** The shard key of a tenant is its id, which is also the tenant filter's value, as the guide requires. */
    @Test
    void theTargetKeyIsTheValueOfTheTenantFilter() {
        ShardKeySelector selector = ShardRouting.tiered(Set.of()).selectorFor("acme").orElseThrow();
        String filtered = FilterTranslator.tenant("acme").getMust(0).getField().getMatch().getKeyword();
        assertEquals(filtered, selector.getShardKeys(0).getKeyword());
    }

    @Test
    void theFallbackKeyCanNeverBeATenantsKey() {
        assertFalse(Identifiers.NAMESPACE_ID.matcher(ShardRouting.FALLBACK_KEY).matches(),
                "'" + ShardRouting.FALLBACK_KEY + "' is not a valid tenant id, so no tenant's dedicated shard can take its name");
    }

    @Test
    void withoutTieredMultitenancyNoRequestNamesAShard() {
        assertTrue(ShardRouting.none().selectorFor("acme").isEmpty());
        assertTrue(ShardRouting.none().fallbackOnly().isEmpty());
        assertFalse(ShardRouting.none().enabled());
    }

    @Test
    void dedicatedTenantsAreValidatedAndNeedTieredMultitenancy() {
        InvalidConfigException withoutTiered = assertThrows(InvalidConfigException.class,
                () -> settings(Map.of(QdrantOptions.DEDICATED_TENANTS, "bigco")));
        assertTrue(withoutTiered.getMessage().contains("needs tieredMultitenancy=true"), withoutTiered.getMessage());
        InvalidConfigException badId = assertThrows(InvalidConfigException.class,
                () -> settings(Map.of(QdrantOptions.TIERED_MULTITENANCY, "true", QdrantOptions.DEDICATED_TENANTS, "bigco,Big Co")));
        assertTrue(badId.getMessage().contains("Big Co"), badId.getMessage());
        QdrantSettings ok = settings(Map.of(QdrantOptions.TIERED_MULTITENANCY, "true", QdrantOptions.DEDICATED_TENANTS, "bigco, hugeco"));
        assertEquals(Set.of("bigco", "hugeco"), ok.routing().dedicatedTenants());
        assertTrue(ok.routing().enabled());
    }

    static QdrantSettings settings(Map<String, String> more) {
        Map<String, String> options = new java.util.HashMap<>(Map.of(QdrantOptions.URL, "http://127.0.0.1:6334"));
        options.putAll(more);
        return QdrantSettings.from(PluginConfig.validate(QdrantVectorStoreProvider.NAME, QdrantOptions.all(), options));
    }
}
