package io.corpora.server.metrics;

import io.corpora.engine.embed.QueryEmbeddingCache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;

/**
 * The query-embedding cache seen from {@code /metrics}: {@code corpora.retrieve.queryCache.hits}, {@code .misses},
 * {@code .evictions} (monotonic, read from the cache) and {@code .entries}. Server-wide, never by tenant: entries are.
 */
@ApplicationScoped
public class QueryCacheMetrics {

    @Inject
    MetricRegistry registry;

    /** Registers the gauges over {@code cache} (once; the data plane's cache lives as long as the application). */
    public void register(QueryEmbeddingCache cache) {
        gauge("hits", "Queries whose vector came from the cache", cache::hits);
        gauge("misses", "Queries embedded by the model (cache enabled, vector not cached)", cache::misses);
        gauge("evictions", "Query vectors dropped to keep the cache within its bound", cache::evictions);
        gauge("entries", "Query vectors held now", () -> (long) cache.size());
    }

    private void gauge(String name, String description, java.util.function.Supplier<Long> value) {
        Metadata metadata = Metadata.builder().withName("corpora.retrieve.queryCache." + name).withDescription(description)
                .withUnit(MetricUnits.NONE).build();
        registry.gauge(metadata, value);
    }
}
