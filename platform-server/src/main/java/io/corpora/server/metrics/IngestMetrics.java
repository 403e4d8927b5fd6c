package io.corpora.server.metrics;

import io.corpora.ingest.IngestionService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricUnits;

/** Ingest throughput per tenant: {@code corpora.ingest.documents} and {@code corpora.ingest.chunks} stored (counters), while the tenant is in the working set ({@link TenantMetricSeries}). */
@ApplicationScoped
public class IngestMetrics implements IngestionService.IngestListener {

    static final Metadata DOCUMENTS = Metadata.builder().withName("corpora.ingest.documents")
            .withDescription("Document versions stored, by tenant").withUnit(MetricUnits.NONE).build();
    static final Metadata CHUNKS = Metadata.builder().withName("corpora.ingest.chunks")
            .withDescription("Chunks embedded and stored, by tenant").withUnit(MetricUnits.NONE).build();

    @Inject
    TenantMetricSeries series;

    @Override
    public void stored(String tenantId, int chunks) {
        series.record(tenantId, meters -> {
            meters.counter(DOCUMENTS).inc();
            meters.counter(CHUNKS).inc(chunks);
        });
    }
}
