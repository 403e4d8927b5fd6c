package io.corpora.server.metrics;

import io.corpora.tenancy.TenantTraffic;
import jakarta.enterprise.context.ApplicationScoped;

/** The server's one {@link TenantTraffic}: fed by {@link RequestMetricsFilter}, read by the fleet view. */
@ApplicationScoped
public class FleetTraffic {

    private final TenantTraffic traffic = new TenantTraffic(System::nanoTime);

    public TenantTraffic traffic() {
        return traffic;
    }
}
