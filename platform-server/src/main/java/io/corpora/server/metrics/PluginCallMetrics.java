package io.corpora.server.metrics;

import io.corpora.runtime.guard.GuardKey;
import io.corpora.runtime.guard.PluginCallObserver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricUnits;

/**
 * Times every guarded plugin call (embedder, store, reranker, filter hook) per tenant, kind, operation and outcome:
 * {@code corpora.plugin.call} (a timer; outcome is success, caller_error, timeout, failed, circuit_open or bulkhead_full);
 * per tenant while it is in the working set ({@link TenantMetricSeries}).
 */
@ApplicationScoped
public class PluginCallMetrics implements PluginCallObserver {

    static final Metadata CALLS = Metadata.builder().withName("corpora.plugin.call")
            .withDescription("Guarded plugin calls by tenant, kind, operation and outcome, with their duration (retries included)")
            .withUnit(MetricUnits.NANOSECONDS).build();

    @Inject
    TenantMetricSeries series;

    @Override
    public void completed(GuardKey key, String operation, String outcome, long nanos) {
        series.record(key.tenant(), meters -> meters.timer(CALLS, "kind", key.kind().label(), "operation", operation, "outcome", outcome)
                .update(Duration.ofNanos(nanos)));
    }
}
