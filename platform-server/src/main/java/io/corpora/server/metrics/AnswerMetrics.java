package io.corpora.server.metrics;

import io.corpora.answer.AnswerObserver;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Locale;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricUnits;

/**
 * Answers per tenant: {@code corpora.ask.answers} by outcome ({@code answered}, {@code no_source} — the model was not
 * called —, {@code cancelled}, {@code failed}), {@code corpora.ask.citations.removed} (invented markers stripped) and
 * {@code corpora.ask.transform.fallbacks} by transform; per tenant while it is in the working set ({@link TenantMetricSeries}).
 */
@ApplicationScoped
public class AnswerMetrics implements AnswerObserver {

    static final Metadata ANSWERS = Metadata.builder().withName("corpora.ask.answers")
            .withDescription("Questions answered, by tenant and outcome (no_source: nothing matched, the model was not called)")
            .withUnit(MetricUnits.NONE).build();
    static final Metadata REMOVED = Metadata.builder().withName("corpora.ask.citations.removed")
            .withDescription("Citation markers naming no passage, removed from answers, by tenant").withUnit(MetricUnits.NONE).build();
    static final Metadata FALLBACKS = Metadata.builder().withName("corpora.ask.transform.fallbacks")
            .withDescription("Query transforms whose model call failed or timed out (the question was retrieved alone), by tenant and transform")
            .withUnit(MetricUnits.NONE).build();

    @Inject
    TenantMetricSeries series;

    @Override
    public void answered(String tenant, Outcome outcome, int removedCitations) {
        series.record(tenant, meters -> {
            meters.counter(ANSWERS, "outcome", outcome.name().toLowerCase(Locale.ROOT)).inc();
            if (removedCitations > 0) {
                meters.counter(REMOVED).inc(removedCitations);
            }
        });
    }

    @Override
    public void transformFellBack(String tenant, String transform) {
        series.record(tenant, meters -> meters.counter(FALLBACKS, "transform", transform).inc());
    }
}
