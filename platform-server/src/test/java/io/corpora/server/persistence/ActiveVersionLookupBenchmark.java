package io.corpora.server.persistence;

import io.corpora.controlplane.Quotas;
import io.corpora.spi.Namespace;
import jakarta.persistence.EntityManager;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.sql.Connection;
import java.time.Clock;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Random;
import java.util.function.Supplier;

/**
 * The isolation guard's lookup (the active versions of a leg's 50 hits, every retrieval) as the registry sends it —
 * plain JDBC on the transaction's connection — against the same statement sent as an EclipseLink native query, as the
 * registry sent it before: warm, interleaved rounds, each lookup in its own transaction, on one tenant of
 * {@code documents} documents (H2 with the server's options; PostgreSQL too when {@code CORPORA_TEST_PG_URL} is set).
 *
 * <pre>
 * java -cp "platform-server/target/test-classes:platform-server/target/classes:$(cat platform-server/target/bench.classpath)" \
 *     io.corpora.server.persistence.ActiveVersionLookupBenchmark 30000 1000     # documents, lookups per round
 * </pre>
 */
public final class ActiveVersionLookupBenchmark {

    private static final int ROUNDS = 6;
    private static final int IDS = 50;

    private ActiveVersionLookupBenchmark() {}

    public static void main(String[] args) throws Exception {
        int documents = args.length > 0 ? Integer.parseInt(args[0]) : 30_000;
        int lookups = args.length > 1 ? Integer.parseInt(args[1]) : 1_000;
        BenchmarkDatabases.each((database, em) -> measure(database, em, documents, lookups));
    }

    private static void measure(String database, EntityManager em, int documents, int lookups) {
        BenchmarkDatabases.createTenants(em, 1, Quotas.UNLIMITED);
        String text = "Lorem ipsum dolor sit amet. ".repeat(100);
        ControlPlaneJpa.inTx(em, () -> {
            StoredDocumentRows.insert(em.unwrap(Connection.class), 0, documents, id -> "t0", text);
            return null;
        });
        ControlPlaneJpa.inTx(em, () -> em.createNativeQuery("ANALYZE").executeUpdate());
        JpaDocumentRegistry registry = new JpaDocumentRegistry(em, Clock.systemUTC());
        Namespace namespace = Namespace.of("t0");
        Random random = new Random(42);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        for (int round = 1; round <= ROUNDS; round++) { // the first rounds warm the JIT up
            for (String path : List.of("native query", "JDBC")) {
                long cpu = 0;
                long wall = 0;
                for (int i = 0; i < lookups; i++) {
                    List<String> ids = new ArrayList<>();
                    for (int k = 0; k < IDS; k++) {
                        ids.add("d" + random.nextInt(documents));
                    }
                    Supplier<Map<String, Integer>> lookup = path.equals("JDBC") ? () -> registry.activeVersions(namespace, ids)
                            : () -> asNativeQuery(em, namespace, ids);
                    long cpu0 = threads.getCurrentThreadCpuTime();
                    long wall0 = System.nanoTime();
                    Map<String, Integer> versions = ControlPlaneJpa.inTx(em, lookup);
                    wall += System.nanoTime() - wall0;
                    cpu += threads.getCurrentThreadCpuTime() - cpu0;
                    int distinct = new HashSet<>(ids).size();
                    if (versions.size() != distinct) {
                        throw new IllegalStateException(path + " found " + versions.size() + " of " + distinct);
                    }
                }
                System.out.printf(Locale.ROOT, "%-10s round %d  %-12s %.3f ms wall, %.3f ms CPU per lookup of %d ids%n",
                        database, round, path, wall / 1e6 / lookups, cpu / 1e6 / lookups, IDS);
            }
        }
    }

    /** The same statement through EclipseLink, as {@code JpaDocumentRegistry} sent it before cc00da9. */
    private static Map<String, Integer> asNativeQuery(EntityManager em, Namespace namespace, List<String> ids) {
        DocumentLookup lookup = DocumentLookup.activeVersions(namespace, ids.stream().distinct().toList());
        Map<String, Integer> versions = new HashMap<>();
        for (Object row : lookup.nativeQuery(em).getResultList()) {
            Object[] columns = (Object[]) row;
            versions.put((String) columns[0], ((Number) columns[1]).intValue());
        }
        return versions;
    }
}
