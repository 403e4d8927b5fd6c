package io.corpora.control;

import java.time.Instant;

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
}
