package io.corpora.server.metrics;

import io.corpora.engine.embed.DocumentEmbeddingCache;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.MetricUnits;

/**
 * The document-embedding cache seen from {@code /metrics}: {@code corpora.ingest.embeddingCache.hits} and {@code .misses}
 * (chunk texts, monotonic), {@code .entries} and {@code .bytes} on disk. Registered only when the cache is enabled;
 * server-wide, never by tenant.
 */
@ApplicationScoped
public class DocumentCacheMetrics {

    @Inject
    MetricRegistry registry;

    public void register(DocumentEmbeddingCache cache) {
        if (!cache.enabled()) {
            return;
        }
        gauge("hits", "Chunk texts whose vector came from the cache at ingest", MetricUnits.NONE, cache::hits);
        gauge("misses", "Chunk texts the model embedded at ingest (cache enabled, vector not cached)", MetricUnits.NONE, cache::misses);
        gauge("entries", "Document vectors held on disk", MetricUnits.NONE, cache::entries);
        gauge("bytes", "Bytes the cache holds on disk", MetricUnits.BYTES, cache::bytes);
    }

    private void gauge(String name, String description, String unit, java.util.function.Supplier<Long> value) {
        Metadata metadata = Metadata.builder().withName("corpora.ingest.embeddingCache." + name).withDescription(description)
                .withUnit(unit).build();
        registry.gauge(metadata, value);
    }
}
