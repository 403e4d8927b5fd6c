package io.corpora.controlplane;

import io.corpora.spi.Namespace;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/**
 * A tenant as the control plane holds it.
 *
 * @param activeEmbedder the {@link io.corpora.spi.EmbedderFingerprint#id()} every chunk of the tenant carries,
 *                       or null before the first ingest
 * @param revision       optimistic-lock version, bumped on every change
 */
public record Tenant(TenantDefinition definition, String activeEmbedder, Instant created, Instant updated, long revision) {
    public String id() {
        return definition.id();
    }

    public TenantState state() {
        return definition.state();
    }

    /** The tenant's store namespaces: its default partition, then every declared one. */
    public List<Namespace> namespaces() {
        List<Namespace> namespaces = new ArrayList<>();
        namespaces.add(Namespace.of(id()));
        definition.access().partitions().forEach(p -> namespaces.add(Namespace.of(id(), p)));
        return namespaces;
    }
}
