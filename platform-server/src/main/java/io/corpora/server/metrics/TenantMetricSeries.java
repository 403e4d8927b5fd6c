package io.corpora.server.metrics;

import io.corpora.runtime.TenantRuntimes;
import io.corpora.runtime.TenantWorkingSet;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.eclipse.microprofile.metrics.MetricRegistry;

/**
 * Keeps the per-tenant metric series (every metric tagged {@code tenant}) and fleet traffic windows bounded by the
 * working set, not by the number of provisioned tenants: a tenant's series are registered only while it is in the set
 * and removed when it leaves it (eviction, idle timeout, deactivation, offload, deletion). A timer holds kilobytes of
 * histogram buckets, so 10,000 idle tenants' series alone would cost gigabytes.
 *
 * <p>A metric for a tenant outside the set (an admin read of an idle tenant, a refusal of an inactive one) is recorded
 * under tenant {@code -}. A tenant's series start again from zero when it comes back (a counter reset to Prometheus).
 * Its meters are looked up in the registry once and kept ({@link TenantMeters}) until its series are dropped.
 */
@ApplicationScoped
public class TenantMetricSeries {

    /** The tenant tag of everything not attributed to a tenant in the working set. */
    public static final String UNATTRIBUTED = "-";

    @Inject
    MetricRegistry registry;

    @Inject
    FleetTraffic fleet;

    private volatile TenantWorkingSet workingSet;
    private final Map<String, TenantMeters> meters = new ConcurrentHashMap<>();

    /** Ties the series to this data plane's working set (once, when it is built). */
    public void bind(TenantRuntimes runtimes) {
        runtimes.addReleaseListener(this::released);
        workingSet = runtimes.workingSet();
    }

    /**
     * Calls {@code record} with the meters to use: {@code tenant}'s, holding it in the working set meanwhile so its
     * release cannot run between the check and the registration, or {@link #UNATTRIBUTED}'s when it is not in the set.
     */
    public void record(String tenant, Consumer<TenantMeters> record) {
        TenantWorkingSet current = workingSet;
        if (current == null || UNATTRIBUTED.equals(tenant) || !current.runIfOpen(tenant, () -> record.accept(metersOf(tenant)))) {
            record.accept(metersOf(UNATTRIBUTED));
        }
    }

    private TenantMeters metersOf(String tenant) {
        TenantMeters known = meters.get(tenant);
        return known != null ? known : meters.computeIfAbsent(tenant, t -> new TenantMeters(t, registry));
    }

    /** Drops every series tagged with this tenant, the meters kept for them, and its traffic window. */
    void released(String tenant) {
        meters.remove(tenant); // first: no call records for a tenant being released, the next one registers afresh
        registry.removeMatching((id, metric) -> tenant.equals(id.getTags().get("tenant")));
        fleet.traffic().forget(tenant);
    }
}
