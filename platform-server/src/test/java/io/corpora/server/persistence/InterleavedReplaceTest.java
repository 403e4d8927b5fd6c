package io.corpora.server.persistence;

import io.corpora.testkit.ForwardingVectorStore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.DocumentStatus;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.ingest.DocumentLoaders;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.IngestRecovery;
import io.corpora.ingest.IngestRequest;
import io.corpora.ingest.IngestionService;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.ReservedKeyStamper;
import io.corpora.testkit.TestEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two writers of one document, interleaved exactly (latches, no sleeps): version N is activated, version N+1 begins and
 * writes its chunks, and only then does N's cleanup of superseded chunks run. That cleanup must delete versions older
 * than N only, so N+1 survives whole and becomes the active version. Real JPA registry (H2, one connection per thread),
 * the real text loader plugin, the test kit's exact store.
 */
class InterleavedReplaceTest {

    private static final int DIMENSION = 32;

    private static final Namespace ACME = Namespace.of("acme");
    private static final long WAIT_SECONDS = 30;

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    @TempDir
    Path data;

    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private DocumentRegistry registry;
    private final ReferenceVectorStore reference = new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION);
    private final TestEmbedder embedder = TestEmbedder.hashedWords(DIMENSION).salt("a").build();

    @BeforeEach
    void open() {
        jpa = controlPlanes.h2();
        Clock clock = Clock.systemUTC();
        tenants = jpa.perThread(TenantRepository.class, em -> new JpaTenantRepository(em, clock));
        registry = jpa.perThread(DocumentRegistry.class, em -> new JpaDocumentRegistry(em, clock));
        tenants.create(new TenantDefinition("acme", null, null, new PluginChoice("reference", Map.of()),
                new PluginChoice("salted", Map.of("salt", "a")), null, null, null, null, null));
    }

    @Test
    void theCleanupAfterAnActivationSparesANewerVersionBeingWritten() throws Exception {
        CountDownLatch olderActivated = new CountDownLatch(1);
        CountDownLatch newerWritten = new CountDownLatch(1);
        CountDownLatch olderCleaned = new CountDownLatch(1);
        ThreadLocal<String> role = ThreadLocal.withInitial(() -> "setup");
        VectorStore interleaving = new ForwardingVectorStore(reference) {
            @Override
            public int deleteWhere(Namespace namespace, MetadataFilter filter) {
                if (!role.get().equals("older")) {
                    return super.deleteWhere(namespace, filter);
                }
                // The older writer's cleanup: it runs only after its activation, and we hold it until the newer writes.
                olderActivated.countDown();
                await(newerWritten);
                try {
                    return super.deleteWhere(namespace, filter);
                } finally {
                    olderCleaned.countDown();
                }
            }

            @Override
            public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
                super.upsert(namespace, chunks);
                if (role.get().equals("newer")) {
                    newerWritten.countDown();
                    await(olderCleaned); // the newer version activates only after the older one cleaned up
                }
            }
        };
        IngestionService ingestion = ingestion();
        TenantRuntime runtime = runtime(interleaving);
        assertEquals("stored", ingestion.ingest(writer(), runtime, text("Lanterns are lit at dusk.")).result());

        AtomicReference<IngestJob.Outcome> older = new AtomicReference<>();
        AtomicReference<IngestJob.Outcome> newer = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread olderWriter = writer("older", role, failure, () -> older.set(ingestion.ingest(writer(), runtime,
                text("Harbour ferries leave hourly."))));
        olderWriter.start();
        assertTrue(olderActivated.await(WAIT_SECONDS, TimeUnit.SECONDS), "the older version was activated");
        Thread newerWriter = writer("newer", role, failure, () -> newer.set(ingestion.ingest(writer(), runtime,
                text("Oil lamps need wicks trimmed weekly."))));
        newerWriter.start();
        olderWriter.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        newerWriter.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

        assertEquals(null, failure.get());
        assertEquals(2, older.get().version());
        assertEquals(3, newer.get().version());
        assertEquals("stored", newer.get().result());
        DocumentRecord document = registry.find(ACME, "policy").orElseThrow();
        assertEquals(3, document.activeVersion(), document.toString());
        List<Chunk> stored = reference.documentChunks(ACME, "policy");
        assertEquals(List.of("Oil lamps need wicks trimmed weekly."), stored.stream().map(Chunk::text).toList(),
                "the active version's chunks, whole, and nothing of the older ones");
        assertEquals(document.chunkCount(), stored.size());
        assertTrue(stored.stream().allMatch(c -> Integer.valueOf(3).equals(c.metadata().get(ReservedKeys.VERSION))), stored.toString());
        assertEquals(List.of(), registry.awaitingCleanup(ACME));
    }

    /**
     * Two uploads of one document at once (a client retrying a batch it thinks was lost, two clients): the earlier
     * write begins, the later one begins while the earlier is still writing its chunks. Only the later version may
     * activate; the earlier caller gets a 409 {@code concurrent-write} (it was a 500 "ingest-failed"), its chunks are
     * removed, and the later version is stored whole.
     */
    @Test
    void aWriteOvertakenByALaterWriteOfTheSameDocumentIsAConflictAndLeavesOnlyTheLaterVersion() throws Exception {
        CountDownLatch earlierWriting = new CountDownLatch(1);
        CountDownLatch laterWritten = new CountDownLatch(1);
        ThreadLocal<String> role = ThreadLocal.withInitial(() -> "setup");
        VectorStore interleaving = new ForwardingVectorStore(reference) {
            @Override
            public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
                super.upsert(namespace, chunks);
                if (role.get().equals("earlier")) {
                    earlierWriting.countDown();
                    await(laterWritten); // the earlier version activates only after the later one has begun and written
                } else if (role.get().equals("later")) {
                    laterWritten.countDown();
                }
            }
        };
        IngestionService ingestion = ingestion();
        TenantRuntime runtime = runtime(interleaving);
        assertEquals("stored", ingestion.ingest(writer(), runtime, text("Lanterns are lit at dusk.")).result());

        AtomicReference<IngestException> earlierRefusal = new AtomicReference<>();
        AtomicReference<IngestJob.Outcome> later = new AtomicReference<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread earlierWriter = writer("earlier", role, failure, () -> {
            try {
                ingestion.ingest(writer(), runtime, text("Harbour ferries leave hourly."));
            } catch (IngestException e) {
                earlierRefusal.set(e);
            }
        });
        earlierWriter.start();
        assertTrue(earlierWriting.await(WAIT_SECONDS, TimeUnit.SECONDS), "the earlier version was being written");
        Thread laterWriter = writer("later", role, failure, () -> later.set(ingestion.ingest(writer(), runtime,
                text("Oil lamps need wicks trimmed weekly."))));
        laterWriter.start();
        earlierWriter.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        laterWriter.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));

        assertEquals(null, failure.get());
        IngestException refusal = earlierRefusal.get();
        assertNotNull(refusal, "the overtaken write must be refused");
        assertEquals(409, refusal.status(), refusal.getMessage());
        assertEquals("concurrent-write", refusal.type());
        assertEquals("stored", later.get().result());
        assertEquals(3, later.get().version());
        DocumentRecord document = registry.find(ACME, "policy").orElseThrow();
        assertEquals(3, document.activeVersion(), document.toString());
        assertEquals(DocumentStatus.ACTIVE, document.status(), "the refused version's failure does not mark the later one");
        assertEquals(List.of("Oil lamps need wicks trimmed weekly."),
                reference.documentChunks(ACME, "policy").stream().map(Chunk::text).toList(),
                "the later version whole; nothing of the refused one or of version 1");
    }

    /**
     * A delete of the document that lands while a new version's chunks are being written: the delete wins, the writer
     * gets a 409 {@code concurrent-write} (it was a 500 "ingest-failed" from a NoSuchElementException), and nothing of
     * the document is left in the registry or the store.
     */
    @Test
    void aDocumentDeletedWhileAVersionIsWrittenIsAConflictAndLeavesNothing() throws Exception {
        IngestionService ingestion = ingestion();
        AtomicReference<TenantRuntime> runtime = new AtomicReference<>();
        IngestException refusal = aSecondVersionInterruptedBy(ingestion, runtime,
                () -> assertTrue(ingestion.delete(writer(), runtime.get(), "policy"), "the delete found the document"));
        assertEquals(409, refusal.status(), refusal.getMessage());
        assertEquals("concurrent-write", refusal.type());
        assertTrue(refusal.getMessage().contains("was deleted while version 2 was being written"), refusal.getMessage());
        assertTrue(registry.find(ACME, "policy").isEmpty(), "the delete stands");
        assertEquals(List.of(), reference.documentChunks(ACME, "policy"), "no chunk of either version is left");
    }

    /** The tenant purged while a version is written: 404 tenant-not-found (it was a 500), and the version's chunks removed. */
    @Test
    void aTenantPurgedWhileAVersionIsWrittenIsNotFound() throws Exception {
        IngestionService ingestion = ingestion();
        IngestException refusal = aSecondVersionInterruptedBy(ingestion, new AtomicReference<>(), () -> {
            registry.deleteTenant("acme");
            tenants.delete("acme");
        });
        assertEquals(404, refusal.status(), refusal.getMessage());
        assertEquals("tenant-not-found", refusal.type());
        assertTrue(refusal.getMessage().contains("tenant 'acme' was deleted"), refusal.getMessage());
        assertEquals(List.of("Lanterns are lit at dusk."), reference.documentChunks(ACME, "policy").stream().map(Chunk::text).toList(),
                "only the first version's chunks, which the purge of the store (not run here) removes; the refused version's are gone");
    }

    /**
     * Stores version 1 of "policy", then writes version 2 and runs {@code interruption} on another thread once its chunks
     * are in the store, before its activation; returns the refusal version 2 met.
     */
    private IngestException aSecondVersionInterruptedBy(IngestionService ingestion, AtomicReference<TenantRuntime> runtimeRef, Runnable interruption)
            throws InterruptedException {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        ThreadLocal<String> role = ThreadLocal.withInitial(() -> "setup");
        VectorStore interrupting = new ForwardingVectorStore(reference) {
            @Override
            public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
                super.upsert(namespace, chunks);
                if (role.get().equals("writer")) {
                    Thread other = writer("interruption", role, failure, interruption);
                    other.start();
                    try {
                        other.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            }
        };
        TenantRuntime runtime = runtime(interrupting);
        runtimeRef.set(runtime);
        AccessDecision writer = writer();
        assertEquals("stored", ingestion.ingest(writer, runtime, text("Lanterns are lit at dusk.")).result());

        AtomicReference<IngestException> refusal = new AtomicReference<>();
        Thread second = writer("writer", role, failure, () -> {
            try {
                ingestion.ingest(writer, runtime, text("Harbour ferries leave hourly."));
            } catch (IngestException e) {
                refusal.set(e);
            }
        });
        second.start();
        second.join(TimeUnit.SECONDS.toMillis(WAIT_SECONDS));
        assertEquals(null, failure.get());
        assertNotNull(refusal.get(), "the interrupted write must be refused");
        return refusal.get();
    }

    @Test
    void theCleanupAtRestartSparesAVersionNewerThanTheActiveOne() throws Exception {
        DocumentRegistry registryView = registry;
        JobRepository jobs = jpa.perThread(JobRepository.class, em -> new JpaJobRepository(em, Clock.systemUTC()));
        int v1 = registry.beginVersion(ACME, "policy", "policy", "text/plain", Map.of(), 10);
        write(v1, "old text");
        registry.activateVersion(ACME, "policy", v1, "h1", 1, "old text", description());
        int v2 = registry.beginVersion(ACME, "policy", "policy", "text/plain", Map.of(), 10);
        write(v2, "middle text");
        registry.activateVersion(ACME, "policy", v2, "h2", 1, "middle text", description());
        // …a crash left v1's chunk and the cleanup marker. While recovery cleans, a writer (e.g. another server sharing
        // the control plane and the store) begins v3 and writes its chunk.
        VectorStore racing = new ForwardingVectorStore(reference) {
            @Override
            public int deleteWhere(Namespace namespace, MetadataFilter filter) {
                int v3 = registryView.beginVersion(ACME, "policy", "policy", "text/plain", Map.of(), 10);
                write(v3, "newest text");
                return super.deleteWhere(namespace, filter);
            }
        };

        IngestRecovery.Report report = IngestRecovery.recover(tenants, registry, jobs, jpa.leases(), "recovering-server@1", System.currentTimeMillis(), t -> racing);

        assertEquals(1, report.chunksRemoved(), report.toString());
        assertEquals(List.of("middle text", "newest text"),
                reference.documentChunks(ACME, "policy").stream().map(Chunk::text).sorted().toList(),
                "v1 removed; the active v2 and the v3 being written both kept");
    }

    private IngestionService ingestion() {
        return new IngestionService(registry, tenants, new DocumentLoaders(PluginManager.load(Path.of(
                System.getProperty("corpora.test.plugins.dir", "target/plugins"))), data.resolve("plugins")), IngestLimits.DEFAULT,
                IngestionService.IngestListener.NONE, IngestionService.LoaderGuard.NONE);
    }

    private TenantRuntime runtime(VectorStore store) {
        return new TenantRuntime(tenant().definition(), store, embedder, null, null, ChunkingOptions.defaults());
    }

    private Tenant tenant() {
        return tenants.find("acme").orElseThrow();
    }

    private static IngestRequest text(String text) {
        return IngestRequest.ofText("policy", text, "text/plain", "policy", Map.of());
    }

    private static io.corpora.controlplane.DocumentDescription description() {
        return new io.corpora.controlplane.DocumentDescription("policy", "text/plain", Map.of(), 10);
    }

    private void write(int version, String text) {
        Chunk chunk = ReservedKeyStamper.stamp(new Chunk("policy:" + version, "policy", 0, text, List.of(), Map.of()), ACME, "policy", version);
        reference.upsert(ACME, List.of(new EmbeddedChunk(chunk, embedder.embedQuery(text))));
    }

    private static Thread writer(String name, ThreadLocal<String> role, AtomicReference<Throwable> failure, Runnable work) {
        Thread thread = new Thread(() -> {
            role.set(name);
            try {
                work.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        }, name + "-writer");
        thread.setDaemon(true);
        return thread;
    }

    private static void await(CountDownLatch latch) {
        try {
            if (!latch.await(WAIT_SECONDS, TimeUnit.SECONDS)) {
                throw new AssertionError("the other writer never reached its step");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** An unrestricted writer of the tenant (no filter hook): the interleaving, not access, is under test. */
    private AccessDecision writer() {
        return AccessDecision.decide(new Actor(ACME.tenant(), "writer", null, null, null), tenant(), ACME, null, null);
    }
}
