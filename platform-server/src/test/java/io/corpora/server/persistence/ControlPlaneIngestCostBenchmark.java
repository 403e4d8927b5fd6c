package io.corpora.server.persistence;

import static io.corpora.server.persistence.ControlPlaneJpa.inTx;

import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Quotas;
import io.corpora.controlplane.RetrievalDefaults;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantState;
import io.corpora.ingest.OutcomeBatch;
import io.corpora.spi.Namespace;
import jakarta.persistence.EntityManager;
import jakarta.persistence.EntityManagerFactory;
import jakarta.persistence.Persistence;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Locale;
import java.util.Map;

/**
 * What the control plane costs per ingested document, alone: the calls {@code IngestionService} makes for a new document
 * of a tenant with a document quota — find, the quota check's totals, {@code beginVersion}, {@code activateVersion} with
 * the document's text, each its own transaction, and the job's outcomes in groups ({@link OutcomeBatch}) — on a
 * file-backed H2 with the server's options ({@code WRITE_DELAY=0}: every commit written before it returns), from one
 * thread. Prints the thread's CPU and the wall time per document in windows, while the tenant grows (the quota check
 * reads every active document of the tenant).
 *
 * <pre>
 * java -cp "platform-server/target/test-classes:platform-server/target/classes:$(cat platform-server/target/bench.classpath)" \
 *     io.corpora.server.persistence.ControlPlaneIngestCostBenchmark 4000 1000 1500     # documents, window, text characters[, H2 options]
 * </pre>
 * With {@code -Dpace=60} it writes at most 60 documents a second, about what a server ingesting over HTTP writes: the H2
 * file's growth is only realistic at such a pace. {@code -DcheckpointAfterBegin=true} runs H2's {@code CHECKPOINT} (write
 * what is committed) after each begun version: with a {@code WRITE_DELAY} above 0 in the H2 options, what a group commit
 * that writes only the begun version before the store is touched would cost.
 */
public final class ControlPlaneIngestCostBenchmark {

    private ControlPlaneIngestCostBenchmark() {}

    public static void main(String[] args) throws Exception {
        int documents = args.length > 0 ? Integer.parseInt(args[0]) : 4000;
        int window = args.length > 1 ? Integer.parseInt(args[1]) : 1000;
        int textChars = args.length > 2 ? Integer.parseInt(args[2]) : 1500;
        Path dir = Files.createTempDirectory("control-plane-cost-");
        ControlPlaneMigrations.migrate(ControlPlaneDatabases.h2(dir), ControlPlaneIngestCostBenchmark.class.getClassLoader());
        String url = args.length > 3 // H2 options to try instead of the server's, e.g. without ";QUERY_CACHE_SIZE=0"
                ? ControlPlaneDatabases.h2Url(dir).replace(ControlPlaneDatabases.H2_OPTIONS, args[3]) : ControlPlaneDatabases.h2Url(dir);
        EntityManagerFactory factory = Persistence.createEntityManagerFactory(ControlPlane.PERSISTENCE_UNIT,
                ControlPlaneDatabases.jpaProperties(url, "corpora", ""));
        EntityManager em = factory.createEntityManager();
        Clock clock = Clock.systemUTC();
        JpaTenantRepository tenants = new JpaTenantRepository(em, clock);
        JpaDocumentRegistry registry = new JpaDocumentRegistry(em, clock);
        JpaJobRepository jobs = new JpaJobRepository(em, clock);
        java.lang.reflect.Method totals = totalsMethod();
        inTx(em, () -> tenants.create(new TenantDefinition("acme", "ACME", TenantState.ACTIVE, new PluginChoice("lucene", Map.of()),
                new PluginChoice("onnx", Map.of()), null, RetrievalDefaults.STANDARD, new Quotas(1_000_000, 0, 0, 0, 0), AccessPolicy.NONE)));
        Namespace ns = Namespace.of("acme");
        IngestJob job = inTx(em, () -> jobs.create(ns, documents));
        inTx(em, () -> {
            jobs.markRunning(job.id());
            return null;
        });
        String filler = "Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore. ";
        // The job's outcomes in groups, as the server's job runner records them.
        OutcomeBatch outcomes = new OutcomeBatch(batch -> inTx(em, () -> {
            jobs.recordOutcomes(job.id(), batch);
            return null;
        }));
        // -Dpace=<documents per second>: at most that many, as a server ingesting over HTTP writes them (a fast loop
        // outruns H2's retention time, 45 s, within which no freed chunk is reused).
        double pace = Double.parseDouble(System.getProperty("pace", "0"));
        boolean checkpointAfterBegin = Boolean.getBoolean("checkpointAfterBegin");
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        System.out.printf(Locale.ROOT, "documents %d, text %d chars, H2 %s, registry %s, pace %s, CHECKPOINT after begin %s%n", documents,
                textChars, url.replaceAll(".*;MODE", "MODE"), totals != null ? "with totals()" : "stats() only",
                pace > 0 ? pace + " documents/s" : "none", checkpointAfterBegin);
        long cpu0 = threads.getCurrentThreadCpuTime();
        long wall0 = System.nanoTime();
        long started = wall0;
        for (int i = 0; i < documents; i++) {
            if (pace > 0) {
                long due = started + (long) (i / pace * 1e9);
                while (System.nanoTime() < due) {
                    java.util.concurrent.locks.LockSupport.parkNanos(due - System.nanoTime());
                }
            }
            String id = String.format(Locale.ROOT, "doc-%06d", i);
            String text = (id + " ").repeat(1) + filler.repeat(textChars / filler.length() + 1).substring(0, textChars);
            inTx(em, () -> registry.find(ns, id));
            inTx(em, () -> quotaTotals(registry, totals, "acme"));
            int version = inTx(em, () -> registry.beginVersion(ns, id, id + ".md", "text/markdown", Map.of("source", id + ".md"), text.length()));
            if (checkpointAfterBegin) {
                // With a WRITE_DELAY above 0: the begun version alone written before the store is, as a group commit would need.
                inTx(em, () -> em.createNativeQuery("CHECKPOINT").executeUpdate());
            }
            inTx(em, () -> registry.activateVersion(ns, id, version, "hash-" + id, 3, text,
                    new DocumentDescription(id + ".md", "text/markdown", Map.of("source", id + ".md"), text.length()), "onnx-model", null));
            outcomes.accept(new IngestJob.Outcome(id, "stored", version, 3, 201, null));
            if ((i + 1) % window == 0) {
                long cpu = threads.getCurrentThreadCpuTime();
                long wall = System.nanoTime();
                System.out.printf(Locale.ROOT, "documents %5d-%5d: CPU %.2f ms, wall %.2f ms per document; H2 file %.1f MB%n", i + 2 - window,
                        i + 1, (cpu - cpu0) / 1e6 / window, (wall - wall0) / 1e6 / window, Files.size(dir.resolve("control-plane.mv.db")) / 1e6);
                cpu0 = cpu;
                wall0 = wall;
            }
        }
        outcomes.flush();
        em.close();
        factory.close();
        System.out.printf(Locale.ROOT, "H2 file: %.1f MB%n", Files.size(dir.resolve("control-plane.mv.db")) / 1e6);
    }

    /** {@code DocumentRegistry#totals} where the build has it (after), else {@code stats} as the quota check called it (before). */
    private static java.lang.reflect.Method totalsMethod() {
        try {
            return DocumentRegistry.class.getMethod("totals", String.class);
        } catch (NoSuchMethodException e) {
            return null;
        }
    }

    private static Object quotaTotals(JpaDocumentRegistry registry, java.lang.reflect.Method totals, String tenant) {
        try {
            return totals != null ? totals.invoke(registry, tenant) : registry.stats(tenant);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
