package io.corpora.runtime;

import io.corpora.spi.Namespace;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * Deletes everything of a purged tenant from stores, derived from what exists rather than from the tenant's current
 * definition: each store is asked to drop the tenant whole ({@link VectorStore#deleteTenant}), which reaches partitions
 * nobody names any more; a store that cannot (an SPI 1.0/1.1 plugin) gets every namespace the caller found — the
 * default partition, the definition's partitions and every partition the registry holds documents of.
 */
public final class TenantStorePurge {

    private TenantStorePurge() {}

    /** Returns the namespaces deleted one by one, for stores that could not drop the tenant whole. */
    public static List<Namespace> purge(String tenantId, Collection<String> partitionKeys, Collection<VectorStore> stores) {
        Set<Namespace> namespaces = new LinkedHashSet<>();
        namespaces.add(Namespace.of(tenantId));
        partitionKeys.forEach(partition -> namespaces.add(Namespace.of(tenantId, partition)));
        List<Namespace> oneByOne = new ArrayList<>();
        for (VectorStore store : stores) {
            if (!store.deleteTenant(tenantId)) {
                for (Namespace namespace : namespaces) {
                    store.deleteNamespace(namespace);
                    oneByOne.add(namespace);
                }
            }
        }
        return oneByOne;
    }
}
