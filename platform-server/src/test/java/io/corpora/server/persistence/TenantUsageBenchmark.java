package io.corpora.server.persistence;

import static io.corpora.server.persistence.ControlPlaneJpa.inTx;

import io.corpora.controlplane.DocumentRegistry.CorpusStats;
import io.corpora.controlplane.Quotas;
import io.corpora.spi.Namespace;
import jakarta.persistence.EntityManager;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

/**
 * What a tenant's usage (documents, chunks and bytes of its active versions) costs to read as the control plane grows:
 * the quota check before a document of a tenant with quotas ({@code DocumentRegistry#totals}, for the largest tenant and
 * a small one), a page of the operators' fleet view sorted by size ({@link JpaFleetQuery}), and the active-version lookup
 * every retrieval makes ({@code DocumentRegistry#activeVersions} of 50 of the largest tenant's documents, as a vector leg's
 * candidates). 10,000 tenants; a third
 * of the documents in the largest, the rest spread over all. Before each timed read one document row and its tenant's
 * usage row are updated, as an activation does (H2 would otherwise reuse the previous result). H2 is a file with the server's options;
 * PostgreSQL is measured too when {@code CORPORA_TEST_PG_URL} is set.
 *
 * <pre>
 * java -cp "platform-server/target/test-classes:platform-server/target/classes:$(cat platform-server/target/bench.classpath)" \
 *     io.corpora.server.persistence.TenantUsageBenchmark 10000 100000 300000     # documents at which to measure
 * </pre>
 */
public final class TenantUsageBenchmark {

    private static final int TENANTS = 10_000;
    private static final int READS = 21;
    private static final String TEXT = "Lorem ipsum dolor sit amet. ".repeat(50);

    private TenantUsageBenchmark() {}

    public static void main(String[] args) throws Exception {
        int[] sizes = BenchmarkDatabases.documentCounts(args);
        BenchmarkDatabases.each((database, em) -> measure(database, em, sizes));
    }

    private static void measure(String database, EntityManager em, int[] sizes) {
        Clock clock = Clock.systemUTC();
        BenchmarkDatabases.createTenants(em, TENANTS, new Quotas(1_000_000, 0, 0, 0, 0));
        JpaDocumentRegistry registry = new JpaDocumentRegistry(em, clock);
        JpaFleetQuery fleet = new JpaFleetQuery();
        fleet.em = em;
        int stored = 0;
        for (int size : sizes) {
            int from = stored;
            inTx(em, () -> {
                StoredDocumentRows.insert(em.unwrap(Connection.class), from, size, TenantUsageBenchmark::tenantOf, TEXT);
                return null;
            });
            stored = size;
            TenantUsageRows.recount(em);
            inTx(em, () -> em.createNativeQuery("ANALYZE").executeUpdate()); // statistics, as a running database keeps them
            CorpusStats largest = inTx(em, () -> registry.totals("t0"));
            CorpusStats counted = inTx(em, () -> registry.stats("t0"));
            if (largest.documents() != counted.documents() || largest.chunks() != counted.chunks() || largest.bytes() != counted.bytes()) {
                throw new IllegalStateException("totals " + largest + " differ from the documents' aggregate " + counted);
            }
            String small = tenantOf("d1");
            List<String> candidates = documentsOfLargest(size, 50);
            Namespace largestDefault = Namespace.of("t0");
            if (inTx(em, () -> registry.activeVersions(largestDefault, candidates)).size() != candidates.size()) {
                throw new IllegalStateException("the version lookup missed some of " + candidates);
            }
            System.out.printf(Locale.ROOT, "%-10s %,9d documents (largest tenant %,d): quota totals, largest %s; a small tenant %s;"
                            + " fleet page sorted by chunks %s; versions of 50 of the largest's documents %s%n", database, size, largest.documents(),
                    time(em, size, () -> inTx(em, () -> registry.totals("t0"))),
                    time(em, size, () -> inTx(em, () -> registry.totals(small))),
                    time(em, size, () -> inTx(em, () -> fleet.page("chunks", true, null, null, 0, 50))),
                    time(em, size, () -> inTx(em, () -> registry.activeVersions(largestDefault, candidates))));
        }
    }

    /** The median wall and CPU time of {@link #READS} reads, each after one document row changed. */
    private static String time(EntityManager em, int size, Supplier<?> read) {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        List<Double> wall = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        for (int round = 0; round < READS; round++) {
            String touched = "d" + (round * 7919 % size);
            inTx(em, () -> {
                em.createNativeQuery("UPDATE tenant_usage SET bytes = bytes + 0 WHERE tenant_id = ?").setParameter(1, tenantOf(touched)).executeUpdate();
                return em.createNativeQuery("UPDATE documents SET row_version = row_version + 1 WHERE tenant_id = ? AND partition_id = '_default'"
                        + " AND document_id = ?").setParameter(1, tenantOf(touched)).setParameter(2, touched).executeUpdate();
            });
            long cpu0 = threads.getCurrentThreadCpuTime();
            long wall0 = System.nanoTime();
            read.get();
            wall.add((System.nanoTime() - wall0) / 1e6);
            cpu.add((threads.getCurrentThreadCpuTime() - cpu0) / 1e6);
        }
        return String.format(Locale.ROOT, "%.2f ms (CPU %.2f)", BenchmarkDatabases.median(wall), BenchmarkDatabases.median(cpu));
    }

    /** {@code count} documents of t0, spread over the first {@code size}. */
    private static List<String> documentsOfLargest(int size, int count) {
        List<String> ids = new ArrayList<>();
        for (int i = 0; ids.size() < count && i < size; i += Math.max(1, size / (count * 4))) {
            if (tenantOf("d" + i).equals("t0")) {
                ids.add("d" + i);
            }
        }
        return ids;
    }

    /** A third of the documents in t0, the rest spread over every tenant. */
    private static String tenantOf(String documentId) {
        int hash = documentId.hashCode();
        return Math.floorMod(hash, 3) == 0 ? "t0" : "t" + Math.floorMod(hash / 3, TENANTS);
    }
}
