package io.corpora.server.health;

import io.corpora.server.dataplane.DataPlane;
import io.corpora.spi.store.VectorStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.logging.Logger;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the control-plane database answers a query and every store instantiated so far (one per distinct store
 * configuration among the tenants that have been served since boot) passes {@link VectorStore#checkHealth()}. All probes
 * run concurrently, each bounded by its timeout ({@link HealthProbes}). The data names each failing dependency and the
 * kind of its failure only ("DOWN: PgVectorStoreException"): the endpoint answers anyone, and a store's own words name hosts,
 * paths and tenants' tables. Those words go to the log when a dependency goes down or fails in another way.
 */
@Readiness
@ApplicationScoped
public class DependenciesReadinessCheck implements HealthCheck {

    private static final Logger LOG = Logger.getLogger(DependenciesReadinessCheck.class.getName());
    /** How often a dependency that stays down with the same kind of failure is logged again. */
    private static final long RELOG_NANOS = TimeUnit.MINUTES.toNanos(5);

    @Inject
    HealthProbes probes;

    @Inject
    DataPlane dataPlane;

    /**
     * The kind of failure last logged for each dependency that is down, and when: probes come every few seconds, and a
     * failure's words may differ each time (a timeout's milliseconds), so a new kind is logged at once and the same
     * kind again only after {@link #RELOG_NANOS}.
     */
    private final Map<String, Logged> logged = new ConcurrentHashMap<>();

    private record Logged(Class<?> kind, long atNanos) {}

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

    /** Logs a dependency going down, failing in another way, or coming back; package-private for its test. */
    void logChange(String dependency, Throwable failure) {
        if (failure == null) {
            if (logged.remove(dependency) != null) {
                LOG.info("readiness: " + dependency + " is UP again");
            }
            return;
        }
        long now = System.nanoTime();
        Logged last = logged.get(dependency);
        if (last == null || last.kind() != failure.getClass() || now - last.atNanos() >= RELOG_NANOS) {
            logged.put(dependency, new Logged(failure.getClass(), now));
            LOG.warning("readiness: " + dependency + " is DOWN: " + HealthProbes.describe(failure));
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
