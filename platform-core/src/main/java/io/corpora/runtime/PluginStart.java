package io.corpora.runtime;

import io.corpora.plugin.loader.PluginKind;
import java.util.Objects;

/**
 * Whether one of a tenant's plugins started on this server, as an operator asks before the tenant's callers find out.
 *
 * @param field    where the tenant's definition chooses it: {@code store}, {@code embedder}, {@code reranker},
 *                 {@code generator}, {@code access/filterHook}
 * @param problem  null when it started; otherwise what went wrong in the plugin's own words, which may name hosts, paths
 *                 and tables: for the operator, never for the tenant's callers
 */
public record PluginStart(String field, PluginKind kind, String provider, String problem) {

    public PluginStart {
        Objects.requireNonNull(field, "field");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(provider, "provider");
    }

    public boolean started() {
        return problem == null;
    }
}
