package io.corpora.server.metrics;

import io.corpora.server.api.model.RetrievalBatchResult;
import io.corpora.server.api.model.RetrievalResult;
import jakarta.inject.Inject;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.container.ContainerRequestContext;
import jakarta.ws.rs.container.ContainerRequestFilter;
import jakarta.ws.rs.container.ContainerResponseContext;
import jakarta.ws.rs.container.ContainerResponseFilter;
import jakarta.ws.rs.container.ResourceInfo;
import jakarta.ws.rs.core.Context;
import jakarta.ws.rs.ext.Provider;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.MetricUnits;

/**
 * Per tenant and route: {@code corpora.requests} (counter, also tagged with the status class), {@code corpora.request.duration}
 * (timer), and for retrievals {@code corpora.retrieve.passages} (histogram of passages returned per query),
 * {@code corpora.retrieve.refusals} and {@code corpora.retrieve.degraded} (counters). The route is the matched resource
 * template (e.g. {@code POST /api/v1/tenants/{tenant}/retrieve}); the tenant tag is the path's tenant only once the call
 * was authorized and the tenant exists (401/403/404 are counted under "-"), so forged paths cannot mint new series, and
 * only while the tenant is in the working set ({@link TenantMetricSeries}: its series go when it leaves).
 */
@Provider
public class RequestMetricsFilter implements ContainerRequestFilter, ContainerResponseFilter {

    private static final String STARTED = RequestMetricsFilter.class.getName() + ".started";
    static final Metadata REQUESTS = Metadata.builder().withName("corpora.requests")
            .withDescription("HTTP requests by tenant, route and status class").withUnit(MetricUnits.NONE).build();
    static final Metadata DURATION = Metadata.builder().withName("corpora.request.duration")
            .withDescription("HTTP request latency by tenant and route (until the response body is written)")
            .withUnit(MetricUnits.NANOSECONDS).build();
    static final Metadata PASSAGES = Metadata.builder().withName("corpora.retrieve.passages")
            .withDescription("Passages returned per retrieval query, by tenant and route").withUnit(MetricUnits.NONE).build();
    static final Metadata REFUSALS = Metadata.builder().withName("corpora.retrieve.refusals")
            .withDescription("Passages refused by the retrieval (minScore, maxChars…), by tenant and route").withUnit(MetricUnits.NONE).build();
    static final Metadata DEGRADED = Metadata.builder().withName("corpora.retrieve.degraded")
            .withDescription("Retrieval queries answered degraded (e.g. reranker failed), by tenant and route").withUnit(MetricUnits.NONE).build();

    /** A resource method (on the class that matched: an inherited method's path is its subclass's). */
    private record Resource(Class<?> type, Method method) {}

    /** Path templates by resource method: a fixed set, read once each, not per request. */
    private static final Map<Resource, String> TEMPLATES = new ConcurrentHashMap<>();

    @Inject
    FleetTraffic fleet;

    @Inject
    TenantMetricSeries series;

    @Context
    ResourceInfo resource;

    @Override
    public void filter(ContainerRequestContext request) {
        request.setProperty(STARTED, System.nanoTime());
    }

    @Override
    public void filter(ContainerRequestContext request, ContainerResponseContext response) {
        Object started = request.getProperty(STARTED);
        if (!(started instanceof Long start)) {
            return;
        }
        int status = response.getStatus();
        long elapsed = System.nanoTime() - start;
        String tenantParam = request.getUriInfo().getPathParameters().getFirst("tenant");
        String tenant = tenantParam == null || status == 401 || status == 403 || status == 404 ? TenantMetricSeries.UNATTRIBUTED : tenantParam;
        String route = route(request.getMethod());
        series.record(tenant, meters -> {
            meters.counter(REQUESTS, "route", route, "status", (status / 100) + "xx").inc();
            meters.timer(DURATION, "route", route).update(Duration.ofNanos(elapsed));
            if (meters.attributed()) {
                fleet.traffic().record(meters.tenant(), elapsed);
            }
            if (status == 200 && response.getEntity() instanceof RetrievalBatchResult batch) {
                batch.results().forEach(result -> recordRetrieval(result, meters, route));
            } else if (status == 200 && response.getEntity() instanceof RetrievalResult result) {
                recordRetrieval(result, meters, route);
            }
        });
    }

    private static void recordRetrieval(RetrievalResult result, TenantMeters meters, String route) {
        meters.histogram(PASSAGES, "route", route).update(result.passages().size());
        meters.counter(REFUSALS, "route", route).inc(result.diagnostics().refusals().size());
        if (result.diagnostics().degraded()) {
            meters.counter(DEGRADED, "route", route).inc();
        }
    }

    private String route(String httpMethod) {
        Class<?> type = resource == null ? null : resource.getResourceClass();
        Method method = resource == null ? null : resource.getResourceMethod();
        if (type == null || method == null) {
            return httpMethod + " (unmatched)";
        }
        return httpMethod + " " + TEMPLATES.computeIfAbsent(new Resource(type, method),
                r -> join(join("", r.type().getAnnotation(Path.class)), r.method().getAnnotation(Path.class)));
    }

    private static String join(String prefix, Path path) {
        if (path == null) {
            return prefix;
        }
        String segment = path.value().startsWith("/") ? path.value() : "/" + path.value();
        return (prefix + segment).replaceAll("/+$", "").replace("//", "/");
    }
}
