package io.corpora.controlplane;

import java.util.Map;
import java.util.Objects;

/**
 * A provider chosen for a tenant and its configuration. Values of the form {@code ${config:some.key}} are
 * references to MicroProfile Config keys (how secrets are given), resolved only when the plugin is created.
 */
public record PluginChoice(String provider, Map<String, String> config) {
    public PluginChoice {
        Objects.requireNonNull(provider, "provider");
        config = config == null ? Map.of() : Map.copyOf(config);
    }
}
