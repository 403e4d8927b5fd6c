package io.corpora.store.qdrant;

import java.util.Map;

/** The contract on custom-sharded collections (tiered multitenancy): every call routed with a target and the fallback shard. */
class QdrantTieredContractIT extends QdrantStoreContractIT {

    @Override
    protected Map<String, String> options() {
        return Map.of(QdrantOptions.TIERED_MULTITENANCY, "true", QdrantOptions.DEDICATED_TENANTS, "dedicated-tenant");
    }
}
