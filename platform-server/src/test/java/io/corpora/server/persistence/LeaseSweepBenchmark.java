package io.corpora.server.persistence;

import static io.corpora.server.persistence.ControlPlaneJpa.inTx;

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
import java.util.Map;

/**
 * What the lease sweep's search for pending versions of dead servers ({@code ServerLeases#orphanedWrites}) costs as the
 * control plane grows. Every server runs it after each lease renewal (every 5 s by default), whatever the load. The
 * documents are stored ones spread over 100 tenants, plus one version a dead server left pending; before each timed
 * sweep one document row is updated, as ingests do between sweeps (H2 would otherwise reuse the previous result).
 * H2 is a file with the server's options; PostgreSQL is measured too when {@code CORPORA_TEST_PG_URL} is set.
 *
 * <pre>
 * java -cp "platform-server/target/test-classes:platform-server/target/classes:$(cat platform-server/target/bench.classpath)" \
 *     io.corpora.server.persistence.LeaseSweepBenchmark 10000 100000 300000     # documents at which to measure
 * </pre>
 */
public final class LeaseSweepBenchmark {

    private static final int TENANTS = 100;
    private static final int SWEEPS = 21;
    private static final String DEAD = "node2@dead";
    private static final String TEXT = "Lorem ipsum dolor sit amet. ".repeat(50);

    private LeaseSweepBenchmark() {}

    public static void main(String[] args) throws Exception {
        int[] sizes = BenchmarkDatabases.documentCounts(args);
        BenchmarkDatabases.each((database, em) -> measure(database, em, sizes));
    }

    private static void measure(String database, EntityManager em, int[] sizes) {
        Clock clock = Clock.systemUTC();
        BenchmarkDatabases.createTenants(em, TENANTS, Quotas.UNLIMITED);
        JpaServerLeases leases = new JpaServerLeases(em);
        long now = System.currentTimeMillis();
        inTx(em, () -> {
            leases.register(DEAD, "node2", now - 60_000, 15_000);
            return null;
        });
        inTx(em, () -> new JpaDocumentRegistry(em, clock, DEAD).beginVersion(Namespace.of("t0"), "left-pending", "a.md", "text/markdown",
                Map.of(), 5));
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        int stored = 0;
        for (int size : sizes) {
            int from = stored;
            inTx(em, () -> {
                StoredDocumentRows.insert(em.unwrap(Connection.class), from, size, LeaseSweepBenchmark::tenantOf, TEXT);
                return null;
            });
            stored = size;
            // Statistics as a running database keeps them (PostgreSQL's autovacuum analyzes after bulk changes).
            inTx(em, () -> em.createNativeQuery("H2".equals(database) ? "ANALYZE" : "ANALYZE documents").executeUpdate());
            List<Double> wall = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            for (int round = 0; round < SWEEPS; round++) {
                String touched = "d" + (round * 7919 % size);
                inTx(em, () -> em.createNativeQuery("UPDATE documents SET row_version = row_version + 1 WHERE tenant_id = ? AND partition_id = '_default'"
                        + " AND document_id = ?").setParameter(1, tenantOf(touched)).setParameter(2, touched).executeUpdate());
                long cpu0 = threads.getCurrentThreadCpuTime();
                long wall0 = System.nanoTime();
                int found = inTx(em, () -> leases.orphanedWrites(System.currentTimeMillis()).size());
                wall.add((System.nanoTime() - wall0) / 1e6);
                cpu.add((threads.getCurrentThreadCpuTime() - cpu0) / 1e6);
                if (found != 1) {
                    throw new IllegalStateException("the sweep found " + found + " pending versions of dead servers, not 1");
                }
            }
            System.out.printf(Locale.ROOT, "%-10s %,9d documents: one sweep %.2f ms (median of %d; this thread's CPU %.2f ms)%s%n", database, size,
                    BenchmarkDatabases.median(wall), SWEEPS, BenchmarkDatabases.median(cpu), plan(em, now));
        }
    }

    /** Whether the sweep's query reads the writer index, where the build names its query (read reflectively: not inlined). */
    private static String plan(EntityManager em, long now) {
        String query;
        try {
            query = (String) JpaServerLeases.class.getDeclaredField("ORPHANED_WRITES").get(null);
        } catch (ReflectiveOperationException e) {
            return "";
        }
        List<?> plan = inTx(em, () -> em.createNativeQuery("EXPLAIN " + query).setParameter(1, now).getResultList());
        return plan.toString().contains("ix_documents_writer") ? "; through ix_documents_writer"
                : "; NOT through the writer index: " + plan.toString().replaceAll("\\s+", " ");
    }

    private static String tenantOf(String documentId) {
        return "t" + Math.floorMod(documentId.hashCode(), TENANTS);
    }
}
