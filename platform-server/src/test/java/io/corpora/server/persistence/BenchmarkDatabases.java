package io.corpora.server.persistence;

import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Quotas;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantState;
import jakarta.persistence.EntityManager;
import java.nio.file.Files;
import java.time.Clock;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The control planes a benchmark measures, each freshly migrated: H2 as a file with the server's options, then the test
 * PostgreSQL schema when {@code CORPORA_TEST_PG_URL} is set.
 */
final class BenchmarkDatabases {

    /** One database's measurement, on an entity manager whose transactions the benchmark manages. */
    @FunctionalInterface
    interface Measurement {
        void run(String database, EntityManager em) throws Exception;
    }

    private BenchmarkDatabases() {}

    static void each(Measurement measurement) throws Exception {
        try (ControlPlaneJpa h2 = ControlPlaneJpa.h2(Files.createTempDirectory("control-plane-bench-"))) {
            measurement.run("H2", h2.entityManager());
        }
        if (ControlPlaneDatabases.pgUrl() != null) {
            try (ControlPlaneJpa postgres = ControlPlaneJpa.postgres()) {
                measurement.run("PostgreSQL", postgres.entityManager());
            }
        }
    }

    /** The document counts at which to measure: the arguments, ascending, or 10,000 and 100,000. */
    static int[] documentCounts(String[] args) {
        return args.length > 0 ? Arrays.stream(args).mapToInt(Integer::parseInt).sorted().toArray() : new int[] {10_000, 100_000};
    }

    /** Tenants {@code t0} to {@code t<count - 1>} on Lucene and ONNX with {@code quotas}, in one transaction. */
    static void createTenants(EntityManager em, int count, Quotas quotas) {
        JpaTenantRepository tenants = new JpaTenantRepository(em, Clock.systemUTC());
        ControlPlaneJpa.inTx(em, () -> {
            for (int t = 0; t < count; t++) {
                String id = "t" + t;
                tenants.create(new TenantDefinition(id, id, TenantState.ACTIVE, new PluginChoice("lucene", Map.of()), new PluginChoice("onnx", Map.of()),
                        null, RetrievalDefaults.STANDARD, quotas, AccessPolicy.NONE));
                if (t % 500 == 499) {
                    em.clear(); // the tenants written so far need not stay managed
                }
            }
            return null;
        });
    }

    static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        return sorted.get(sorted.size() / 2);
    }
}
