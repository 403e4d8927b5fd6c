package io.corpora.server.health;

import io.corpora.server.dataplane.DataPlane;
import io.corpora.spi.store.VectorStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the control-plane database answers a query and every store instantiated so far (one per distinct store
 * configuration among the tenants that have been served since boot) passes {@link VectorStore#checkHealth()}. All probes
 * run concurrently, each bounded by its timeout ({@link HealthProbes}). The data names each failing dependency and the
 * kind of its failure only ("DOWN: PSQLException"): the endpoint answers anyone, and a store's own words name hosts,
 * paths and tenants' tables. Those words go to the log, once each time a dependency's failure changes.
 */
@Readiness
@ApplicationScoped
public class DependenciesReadinessCheck implements HealthCheck {

    @Inject
    HealthProbes probes;

    private static final Logger LOG = Logger.getLogger(DependenciesReadinessCheck.class.getName());

    @Inject
    DataPlane dataPlane;

    /** The failure last logged for each dependency that is down (probes run every few seconds; the log says each once). */
    private final Map<String, String> logged = new ConcurrentHashMap<>();

    @Override
    public HealthCheckResponse call() {
        Map<String, CompletionStage<Void>> running = new LinkedHashMap<>();
        running.put("control-plane-db", start(probes::controlPlane));
        try {
            dataPlane.runtimes().stores().forEach((key, store) -> running.put("store:" + shortName(key), start(() -> probes.store(store))));
        } catch (RuntimeException e) { // the data plane is not wired yet (plugins still loading): not ready, and say why
            running.put("stores", java.util.concurrent.CompletableFuture.failedFuture(e));
        }
        HealthCheckResponseBuilder response = HealthCheckResponse.named("dependencies");
        boolean up = true;
        for (Map.Entry<String, CompletionStage<Void>> probe : running.entrySet()) {
            Throwable failure = HealthProbes.failure(probe.getValue());
            response.withData(probe.getKey(), failure == null ? "UP" : "DOWN: " + failure.getClass().getSimpleName());
            logChange(probe.getKey(), failure);
            up &= failure == null;
        }
        return response.status(up).build();
    }

    private void logChange(String dependency, Throwable failure) {
        if (failure == null) {
            if (logged.remove(dependency) != null) {
                LOG.info("readiness: " + dependency + " is UP again");
            }
            return;
        }
        String detail = HealthProbes.describe(failure);
        if (!detail.equals(logged.put(dependency, detail))) {
            LOG.warning("readiness: " + dependency + " is DOWN: " + detail);
        }
    }

    private static CompletionStage<Void> start(java.util.function.Supplier<CompletionStage<Void>> probe) {
        try {
            return probe.get();
        } catch (RuntimeException e) {
            return java.util.concurrent.CompletableFuture.failedFuture(e);
        }
    }

    /** "vector-store/lucene/3fa2…" → "lucene/3fa2b1c0d9e8": the provider and enough of the config hash to tell stores apart. */
    private static String shortName(String key) {
        String[] parts = key.split("/");
        return parts.length == 3 ? parts[1] + "/" + parts[2].substring(0, Math.min(12, parts[2].length())) : key;
    }
}
