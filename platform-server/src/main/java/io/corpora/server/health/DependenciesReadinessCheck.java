package io.corpora.server.health;

import io.corpora.server.dataplane.DataPlane;
import io.corpora.spi.store.VectorStore;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import org.eclipse.microprofile.health.HealthCheck;
import org.eclipse.microprofile.health.HealthCheckResponse;
import org.eclipse.microprofile.health.HealthCheckResponseBuilder;
import org.eclipse.microprofile.health.Readiness;

/**
 * Ready when the control-plane database answers a query and every store instantiated so far (one per distinct store
 * configuration among the tenants that have been served since boot) passes {@link VectorStore#checkHealth()}. All probes
 * run concurrently, each bounded by its timeout ({@link HealthProbes}); the data names each failing dependency and why.
 */
@Readiness
@ApplicationScoped
public class DependenciesReadinessCheck implements HealthCheck {

    @Inject
    HealthProbes probes;

    @Inject
    DataPlane dataPlane;

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
            String failure = HealthProbes.failureOf(probe.getValue());
            response.withData(probe.getKey(), failure == null ? "UP" : "DOWN: " + failure);
            up &= failure == null;
        }
        return response.status(up).build();
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
