package io.corpora.controlplane;

import java.util.List;

/**
 * How retrievals are filtered for the actor. With a hook, the hook's filter is ANDed into every retrieval and a
 * hook failure fails the request; with none, no access filter is added at all.
 *
 * @param filterHook     the retrieval filter hook provider and its config, or null for none
 * @param partitions     partitions the tenant may use (empty: only the default partition)
 */
public record AccessPolicy(PluginChoice filterHook, List<String> partitions) {
    public AccessPolicy {
        partitions = partitions == null ? List.of() : List.copyOf(partitions);
    }

    public static final AccessPolicy NONE = new AccessPolicy(null, List.of());
}
