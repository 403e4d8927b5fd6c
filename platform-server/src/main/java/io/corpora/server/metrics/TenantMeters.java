package io.corpora.server.metrics;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import org.eclipse.microprofile.metrics.Counter;
import org.eclipse.microprofile.metrics.Histogram;
import org.eclipse.microprofile.metrics.Metadata;
import org.eclipse.microprofile.metrics.Metric;
import org.eclipse.microprofile.metrics.MetricRegistry;
import org.eclipse.microprofile.metrics.Tag;
import org.eclipse.microprofile.metrics.Timer;

/**
 * One tenant tag's meters, each looked up in the registry once and then kept: the registry's own lookup checks the
 * tags against every series it holds (SmallRye's {@code validateTagNamesMatch}), so its cost per request grew with the
 * working set's series. Handed out by {@link TenantMetricSeries#record}, which drops a tenant's meters together with
 * its series, so a meter kept here is always the one the registry exports.
 *
 * <p>Each lookup names its tags as names and values, alternating ({@code "route", route, "status", "2xx"}), after the
 * implicit {@code tenant} tag.
 */
public final class TenantMeters {

    private record Key(String name, List<String> tagPairs) {}

    private final String tenant;
    private final MetricRegistry registry;
    private final Map<Key, Metric> meters = new ConcurrentHashMap<>();

    TenantMeters(String tenant, MetricRegistry registry) {
        this.tenant = tenant;
        this.registry = registry;
    }

    /** The tenant tag these meters carry: a tenant id, or {@link TenantMetricSeries#UNATTRIBUTED}. */
    public String tenant() {
        return tenant;
    }

    public boolean attributed() {
        return !TenantMetricSeries.UNATTRIBUTED.equals(tenant);
    }

    public Counter counter(Metadata metadata, String... tagPairs) {
        return (Counter) meter(metadata, tagPairs, tags -> registry.counter(metadata, tags));
    }

    public Timer timer(Metadata metadata, String... tagPairs) {
        return (Timer) meter(metadata, tagPairs, tags -> registry.timer(metadata, tags));
    }

    public Histogram histogram(Metadata metadata, String... tagPairs) {
        return (Histogram) meter(metadata, tagPairs, tags -> registry.histogram(metadata, tags));
    }

    private Metric meter(Metadata metadata, String[] tagPairs, Function<Tag[], Metric> register) {
        Key key = new Key(metadata.getName(), Arrays.asList(tagPairs));
        Metric known = meters.get(key); // the usual case: no lambda, no tags built
        return known != null ? known : meters.computeIfAbsent(key, k -> register.apply(tags(tagPairs)));
    }

    private Tag[] tags(String[] tagPairs) {
        if (tagPairs.length % 2 != 0) {
            throw new IllegalArgumentException("tag names and values must alternate: " + Arrays.toString(tagPairs));
        }
        List<Tag> tags = new ArrayList<>(1 + tagPairs.length / 2);
        tags.add(new Tag("tenant", tenant));
        for (int i = 0; i < tagPairs.length; i += 2) {
            tags.add(new Tag(tagPairs[i], tagPairs[i + 1]));
        }
        return tags.toArray(Tag[]::new);
    }
}
