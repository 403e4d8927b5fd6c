package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.access.TenantView;
import io.corpora.controlplane.AccessPolicy;
import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantDefinition;
import io.corpora.controlplane.TenantRepository;
import io.corpora.engine.chunk.ChunkingOptions;
import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.ingest.DocumentLoaders;
import io.corpora.ingest.GracefulStop;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.IngestionService;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.ingest.IngestRecovery;
import io.corpora.ingest.ReembedMigration;
import io.corpora.ingest.TenantWriteGate;
import io.corpora.retrieval.RetrievalResponse;
import io.corpora.retrieval.RetrievalService;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.runtime.TenantRuntime;
import io.corpora.spi.Chunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.VectorSimilarity;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.filter.RetrievalFilterHook;
import io.corpora.tenancy.AccessDecision;
import io.corpora.testkit.Poll;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.tenancy.IsolationGuard;
import io.corpora.tenancy.NamespacedChunkIds;
import io.corpora.tenancy.ReservedKeyStamper;
import io.corpora.testkit.TestEmbedder;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The re-embed migration on the real JPA control plane (H2) and a real in-memory store: a tenant with documents in its
 * default partition and a declared one, embedded by A, migrated to B. Crashes are reproduced by a store that throws an
 * {@link Error} at a chosen point and kills the process that ran the migration (its control-plane calls fail from then
 * on), then recovery runs on a fresh gate and migration object, as after a restart.
 */
class ReembedMigrationTest {

    private static final int DIMENSION = 32;

    private static final String TENANT = "acme";
    private static final Namespace DEFAULT = Namespace.of(TENANT);
    private static final Namespace TEAM = Namespace.of(TENANT, "team");
    private static final PluginChoice CHOICE_A = new PluginChoice("salted", Map.of("salt", "a"));
    private static final PluginChoice CHOICE_B = new PluginChoice("salted", Map.of("salt", "b"));
    /** Document id → its chunk texts; two documents share an id across partitions. */
    private static final Map<Namespace, Map<String, List<String>>> CORPUS = Map.of(
            DEFAULT, Map.of("lanterns", List.of("Lanterns are lit at dusk.", "Oil lanterns need wicks trimmed weekly."),
                    "harbour", List.of("The harbour closes at midnight.", "Ferries leave the harbour hourly."),
                    "policy", List.of("Refunds within thirty days.", "Receipts are required for refunds.")),
            TEAM, Map.of("policy", List.of("Team policy: lanterns stay in the shed.", "Shed keys hang by the door."),
                    "roster", List.of("Ana lights the lanterns on Mondays.", "Ben trims the wicks on Fridays.")));

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    @TempDir
    Path data;

    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private DocumentRegistry registry;
    private JobRepository jobs;
    private final TestEmbedder embedderA = TestEmbedder.hashedWords(DIMENSION).salt("a").build();
    private final TestEmbedder embedderB = TestEmbedder.hashedWords(DIMENSION).salt("b").build();
    private final CrashingStore store = new CrashingStore(new ReferenceVectorStore(VectorSimilarity.COSINE, DIMENSION));
    private final Function<TenantDefinition, TenantRuntime> runtimes = d -> new TenantRuntime(d, store,
            "a".equals(d.embedder().config().get("salt")) ? embedderA : embedderB, null, null, ChunkingOptions.defaults());
    private final Map<String, String> originalTexts = new LinkedHashMap<>();

    @BeforeEach
    void seed() {
        jpa = controlPlanes.h2();
        Clock clock = Clock.systemUTC();
        tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        registry = jpa.transactional(DocumentRegistry.class, jpa.documents(clock));
        jobs = jpa.transactional(JobRepository.class, jpa.jobs(clock));
        tenants.create(new TenantDefinition(TENANT, null, null, new PluginChoice("reference", Map.of()), CHOICE_A, null, null, null,
                new AccessPolicy(null, List.of("team"))));
        CORPUS.forEach((namespace, documents) -> documents.forEach((id, texts) -> write(namespace, id, texts)));
        tenants.setActiveEmbedder(TENANT, embedderA.fingerprint().id());
    }

    @Test
    void theOldGenerationServesUntilTheSwitchThenTheNewOneAndNothingOfTheOldRemains() {
        TenantWriteGate gate = new TenantWriteGate();
        ReembedMigration migration = migration(gate);
        RetrievalService retrieval = new RetrievalService(registry::activeVersions, 4);
        List<RetrievalResponse> servedDuring = new ArrayList<>();
        embedderB.beforeDocumentBatch(texts -> servedDuring.add(retrieve(retrieval, DEFAULT)));

        ReembedMigration.Started started = migration.start(tenant(), CHOICE_B);
        assertEquals(JobKind.REEMBED, started.job().kind());
        assertEquals(5, started.job().total(), "every document with an active version, in both partitions");
        IngestException refused = assertThrows(IngestException.class, () -> gate.write(TENANT, () -> "an ingest"));
        assertEquals(409, refused.status());
        assertEquals("migration-in-progress", refused.type());
        assertEquals(TenantWriteGate.RETRY_AFTER_SECONDS, refused.retryAfterSeconds());
        assertEquals("embedder-unchanged", assertThrows(IngestException.class, () -> migration(new TenantWriteGate())
                .start(tenant(), CHOICE_A)).type(), "A is already the tenant's fingerprint");

        IngestJob done = migration.run(started);

        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(5, done.succeeded());
        assertEquals(100, done.percent());
        assertEquals(5, servedDuring.size(), "one retrieval per document batch while the migration wrote");
        for (RetrievalResponse during : servedDuring) {
            assertFalse(during.passages().isEmpty(), "the old generation kept serving");
            assertEquals(embedderA.fingerprint().id(), during.diagnostics().embedderId());
        }
        Tenant after = tenant();
        assertEquals(embedderB.fingerprint().id(), after.activeEmbedder());
        assertEquals(CHOICE_B, after.definition().embedder(), "definition and fingerprint switched together");
        RetrievalResponse served = retrieve(retrieval, TEAM);
        assertFalse(served.passages().isEmpty());
        assertEquals(embedderB.fingerprint().id(), served.diagnostics().embedderId());
        assertOnlyGeneration(embedderB.fingerprint().id());
        assertEquals("done", gate.write(TENANT, () -> "done"), "writes are open again");
    }

    /**
     * A start plans on the tenant as the writes it waited for left it: read by the request before its first ingest was
     * activated (no active embedder yet), it must not plan a migration "from none" — its switch would be refused at
     * the end (seen in an isolation_chaos run: FAILED after re-embedding every document).
     */
    @Test
    void aStartPlansOnTheTenantAsTheWritesItWaitedForLeftIt() {
        tenants.setActiveEmbedder(TENANT, null);
        Tenant readBeforeTheFirstActivation = tenant();
        tenants.setActiveEmbedder(TENANT, embedderA.fingerprint().id()); // the write in flight, committed while the start waited
        ReembedMigration migration = migration(new TenantWriteGate());

        ReembedMigration.Started started = migration.start(readBeforeTheFirstActivation, CHOICE_B);
        assertEquals(embedderA.fingerprint().id(), started.job().reembed().fromEmbedder());
        IngestJob done = migration.run(started);

        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(embedderB.fingerprint().id(), tenant().activeEmbedder());
        assertOnlyGeneration(embedderB.fingerprint().id());
    }

    /**
     * The tenant's fingerprint changed under a running copy (nothing in the product does this while the migration holds
     * the tenant's writes; a purge and re-creation of the tenant could): the run rolls back before the switch, saying
     * what changed, and the old generation serves on.
     */
    @Test
    void aFingerprintChangedDuringTheCopyRollsBackSayingWhatChanged() {
        ReembedMigration migration = migration(new TenantWriteGate());
        AtomicInteger batches = new AtomicInteger();
        embedderB.beforeDocumentBatch(texts -> {
            if (batches.incrementAndGet() == 2) {
                tenants.setActiveEmbedder(TENANT, "elsewhere.384.0000");
            }
        });

        IngestJob done = migration.run(migration.start(tenant(), CHOICE_B));

        assertEquals(JobStatus.FAILED, done.status(), String.valueOf(done));
        assertTrue(done.error().startsWith("rolled back: the tenant now carries elsewhere.384.0000 instead of " + embedderA.fingerprint().id()),
                done.error());
        assertEquals(CHOICE_A, tenant().definition().embedder(), "no switch");
        assertEquals("elsewhere.384.0000", tenant().activeEmbedder());
        assertOnlyGeneration(embedderA.fingerprint().id());
    }

    /** GET chunks (TenantView.chunks) shows the active generation only, while the store holds two. */
    @Test
    void aDocumentsChunksAreOfOneGenerationThroughoutAMigration() {
        ReembedMigration migration = migration(new TenantWriteGate());
        List<List<Chunk>> shown = new ArrayList<>();
        List<Integer> stored = new ArrayList<>();
        embedderB.beforeDocumentBatch(texts -> {
            shown.add(view().chunks("harbour").orElseThrow());
            stored.add(store.documentChunks(DEFAULT, "harbour").size());
        });
        migration.run(migration.start(tenant(), CHOICE_B));

        assertTrue(stored.contains(4), "the test must see the store hold both generations of the document: " + stored);
        for (List<Chunk> chunks : shown) {
            assertEquals(CORPUS.get(DEFAULT).get("harbour"), chunks.stream().sorted(java.util.Comparator.comparingInt(Chunk::index)).map(Chunk::text).toList());
            chunks.forEach(c -> assertEquals(embedderA.fingerprint().id(), c.metadata().get(ReservedKeys.EMBEDDER), c.id()));
        }
        List<Chunk> after = view().chunks("harbour").orElseThrow();
        assertEquals(CORPUS.get(DEFAULT).get("harbour"), after.stream().sorted(java.util.Comparator.comparingInt(Chunk::index)).map(Chunk::text).toList());
        after.forEach(c -> assertEquals(embedderB.fingerprint().id(), c.metadata().get(ReservedKeys.EMBEDDER), c.id()));
    }

    /**
     * A delete sent to another server (its own write gate, which knows nothing of the migration) is refused by the control
     * plane and leaves the chunks the copy reads; the migration then copies the document, and the delete goes through after.
     */
    @Test
    void aDeleteOnAnotherServerDuringAMigrationIsRefusedAndTheCopyKeepsTheDocument() {
        ReembedMigration migration = migration(new TenantWriteGate());
        ReembedMigration.Started started = migration.start(tenant(), CHOICE_B);
        int harbourChunks = store.documentChunks(DEFAULT, "harbour").size();

        IngestException refused = assertThrows(IngestException.class, () -> view().delete("harbour"));
        assertEquals(409, refused.status());
        assertEquals("migration-in-progress", refused.type());
        assertEquals(TenantWriteGate.RETRY_AFTER_SECONDS, refused.retryAfterSeconds());
        assertTrue(refused.getMessage().contains("'harbour' was not deleted") && refused.getMessage().contains("re-embedded"), refused.getMessage());
        assertEquals(harbourChunks, store.documentChunks(DEFAULT, "harbour").size(), "the store is untouched");

        IngestJob done = migration.run(started);
        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(5, done.succeeded(), "the harbour document was copied with the rest");
        assertTrue(view().delete("harbour"), "after the migration the delete goes through");
        assertTrue(store.documentChunks(DEFAULT, "harbour").isEmpty());
        assertTrue(registry.find(DEFAULT, "harbour").isEmpty());
    }

    /** A failed migration's reason names the document it could not copy: only an unrestricted actor reads it. */
    @Test
    void aFailedMigrationsReasonIsWithheldFromAnActorTheAccessRulesRestrict() {
        TenantWriteGate gate = new TenantWriteGate();
        failTheHarbourDocument(() -> {
            throw new IllegalStateException("model refused the input");
        });
        IngestJob failed = migration(gate).run(migration(gate).start(tenant(), CHOICE_B));
        assertTrue(failed.error().contains("harbour"), failed.error());

        IngestJob unrestricted = view().job(failed.id()).orElseThrow();
        assertEquals(failed.error(), unrestricted.error());
        RetrievalFilterHook legalOnly = actor -> MetadataFilter.eq("audience", "group:legal");
        IngestJob restricted = view(legalOnly).job(failed.id()).orElseThrow();
        assertEquals(JobStatus.FAILED, restricted.status());
        assertFalse(restricted.error().contains("harbour"), restricted.error());
        assertTrue(restricted.error().startsWith("withheld"), restricted.error());
        assertTrue(view(legalOnly).jobs(10).stream().filter(j -> j.id().equals(failed.id()))
                .allMatch(j -> !j.error().contains("harbour")), "the job list withholds it too");
    }

    /** The target embedder fails the batch holding the harbour document's "Ferries" chunk with what {@code failure} throws. */
    private void failTheHarbourDocument(Runnable failure) {
        embedderB.beforeDocumentBatch(texts -> {
            if (texts.stream().anyMatch(t -> t.contains("Ferries"))) {
                failure.run();
            }
        });
    }

    private TenantView view() {
        return view(null);
    }

    private TenantView view(RetrievalFilterHook hook) {
        Tenant tenant = tenant();
        AccessDecision access = AccessDecision.decide(new Actor(TENANT, "reader", null, null, null), tenant, DEFAULT, null, hook);
        DocumentLoaders noLoaders = new DocumentLoaders(PluginManager.load(data.resolve("no-plugins")), data);
        return new TenantView(access, runtimes.apply(tenant.definition()), registry, jobs, new RetrievalService(registry::activeVersions, 4),
                new IngestionService(registry, tenants, noLoaders, IngestLimits.DEFAULT, IngestionService.IngestListener.NONE,
                        IngestionService.LoaderGuard.NONE));
    }

    @Test
    void aDocumentThatCannotBeReEmbeddedRollsBackAndTheTenantIsUnchanged() {
        TenantWriteGate gate = new TenantWriteGate();
        failTheHarbourDocument(() -> {
            throw new IllegalStateException("model refused the input");
        });

        IngestJob done = migration(gate).run(migration(gate).start(tenant(), CHOICE_B));

        assertEquals(JobStatus.FAILED, done.status());
        assertTrue(done.error().contains("rolled back") && done.error().contains("harbour"), done.error());
        Tenant after = tenant();
        assertEquals(embedderA.fingerprint().id(), after.activeEmbedder());
        assertEquals(CHOICE_A, after.definition().embedder());
        assertOnlyGeneration(embedderA.fingerprint().id());
        assertFalse(gate.claimed(TENANT));
    }

    /** A store missing a chunk the registry counts is not copied short: the document fails as index-incomplete. */
    @Test
    void aDocumentTheStoreHoldsOnlyInPartIsRefusedAsIndexIncompleteAndTheMigrationRollsBack() {
        TenantWriteGate gate = new TenantWriteGate();
        String lost = store.documentChunks(DEFAULT, "harbour").get(0).id();
        assertEquals(1, store.deleteChunks(DEFAULT, List.of(lost)));

        IngestJob done = migration(gate).run(migration(gate).start(tenant(), CHOICE_B));

        assertEquals(JobStatus.FAILED, done.status(), String.valueOf(done));
        IngestJob.Outcome harbour = done.outcomes().stream().filter(o -> "harbour".equals(o.documentId())).findFirst().orElseThrow();
        assertEquals("failed", harbour.result(), harbour.toString());
        assertEquals(409, harbour.status(), harbour.toString());
        assertEquals("index-incomplete", harbour.problem(), harbour.toString());
        assertTrue(harbour.error().contains("holds 1 of the 2 chunks") && harbour.error().contains("index:rebuild"), harbour.error());
        assertEquals(embedderA.fingerprint().id(), tenant().activeEmbedder(), "rolled back: the tenant keeps its embedder");
        for (Namespace namespace : List.of(DEFAULT, TEAM)) {
            CORPUS.get(namespace).keySet().forEach(id -> store.documentChunks(namespace, id).forEach(chunk ->
                    assertEquals(embedderA.fingerprint().id(), chunk.metadata().get(ReservedKeys.EMBEDDER), "no new-generation chunk left: " + chunk.id())));
        }
        assertFalse(gate.claimed(TENANT));
    }

    @Test
    void aRollBackWhoseNewGenerationCannotBeDeletedStillFailsTheJobAndReopensWrites() {
        TenantWriteGate gate = new TenantWriteGate();
        failTheHarbourDocument(() -> {
            throw new IllegalStateException("model refused the input");
        });
        store.deleteWhereFails = true;
        IngestJob done = migration(gate).run(migration(gate).start(tenant(), CHOICE_B));
        store.deleteWhereFails = false;

        assertEquals(JobStatus.FAILED, done.status(), String.valueOf(done));
        assertTrue(done.error().contains("rolled back") && done.error().contains("the new generation could not be deleted"), done.error());
        assertTrue(jobs.unfinishedReembed(TENANT).isEmpty(), "the job is closed in the control plane");
        assertEquals(embedderA.fingerprint().id(), tenant().activeEmbedder());
        assertFalse(gate.claimed(TENANT));
        int version = registry.beginVersion(DEFAULT, "late", "late.md", "text/markdown", Map.of(), 10);
        registry.activateVersion(DEFAULT, "late", version, "hash-late", 0, "", new DocumentDescription("late.md", "text/markdown", Map.of(), 10),
                tenant().activeEmbedder()); // every server's activations are open again
    }

    @Test
    void anErrorThatKillsOnlyTheMigrationThreadRollsItBackAndClosesTheJob() {
        TenantWriteGate gate = new TenantWriteGate();
        ReembedMigration migration = migration(gate);
        failTheHarbourDocument(() -> {
            throw new StackOverflowError("the migration thread dies; the server lives on");
        });
        ReembedMigration.Started started = migration.start(tenant(), CHOICE_B);
        assertThrows(StackOverflowError.class, () -> migration.run(started));

        IngestJob ended = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertEquals(JobStatus.FAILED, ended.status(), String.valueOf(ended));
        assertTrue(ended.error().contains("rolled back") && ended.error().contains("StackOverflowError"), ended.error());
        assertTrue(jobs.unfinishedReembed(TENANT).isEmpty(), "no open job keeps the tenant's activations refused");
        assertEquals(embedderA.fingerprint().id(), tenant().activeEmbedder());
        assertEquals(CHOICE_A, tenant().definition().embedder());
        assertOnlyGeneration(embedderA.fingerprint().id());
        assertFalse(gate.claimed(TENANT));
    }

    @Test
    void aRestartMidwayResumesAndSkipsTheDocumentsAlreadyReEmbedded() {
        ReembedMigration.Started started = migration(new TenantWriteGate()).start(tenant(), CHOICE_B);
        store.upsertsBeforeCrash.set(2);
        assertThrows(CrashingStore.SimulatedCrash.class, () -> migration(new TenantWriteGate()).run(started));
        store.upsertsBeforeCrash.set(-1);
        int embeddedBeforeCrash = embedderB.documentsEmbedded();

        // The restart: ingest recovery leaves the migration job alone, the migration resumes it.
        assertEquals(0, IngestRecovery.recover(tenants, registry, jobs, jpa.leases(), "recovering-server@1", System.currentTimeMillis(), t -> store).jobsClosed());
        IngestJob interrupted = jobs.unfinishedReembed(TENANT).orElseThrow();
        TenantWriteGate gate = new TenantWriteGate();
        Optional<ReembedMigration.Started> resumed = migration(gate).recover(interrupted, ReembedMigration.OnRestart.RESUME);
        assertTrue(resumed.isPresent());
        assertTrue(gate.claimed(TENANT), "the resumed migration holds the tenant's writes before requests flow");
        IngestJob done = migration(gate).run(resumed.get());

        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(2, done.skipped(), "the two documents written before the crash");
        assertEquals(3, done.succeeded());
        assertEquals(6, embedderB.documentsEmbedded() - embeddedBeforeCrash, "only the three remaining documents' chunks");
        assertEquals(embedderB.fingerprint().id(), tenant().activeEmbedder());
        assertOnlyGeneration(embedderB.fingerprint().id());
    }

    @Test
    void aRestartMidwayWithTheRollBackPolicyRemovesTheNewGeneration() {
        ReembedMigration.Started started = migration(new TenantWriteGate()).start(tenant(), CHOICE_B);
        store.upsertsBeforeCrash.set(3);
        assertThrows(CrashingStore.SimulatedCrash.class, () -> migration(new TenantWriteGate()).run(started));
        store.upsertsBeforeCrash.set(-1);
        assertTrue(store.count(DEFAULT, MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderB.fingerprint().id())) > 0, "the crash left B chunks");

        TenantWriteGate gate = new TenantWriteGate();
        IngestJob interrupted = jobs.unfinishedReembed(TENANT).orElseThrow();
        assertTrue(migration(gate).recover(interrupted, ReembedMigration.OnRestart.ROLL_BACK).isEmpty());

        IngestJob closed = jobs.find(TENANT, interrupted.id()).orElseThrow();
        assertEquals(JobStatus.FAILED, closed.status());
        assertTrue(closed.error().contains("rolled back"), closed.error());
        assertEquals(embedderA.fingerprint().id(), tenant().activeEmbedder());
        assertEquals(CHOICE_A, tenant().definition().embedder());
        assertOnlyGeneration(embedderA.fingerprint().id());
        assertFalse(gate.claimed(TENANT));
        assertTrue(jobs.unfinishedReembed(TENANT).isEmpty());
    }

    @Test
    void aRestartAfterTheSwitchFinishesByRemovingTheOldGeneration() {
        ReembedMigration.Started started = migration(new TenantWriteGate()).start(tenant(), CHOICE_B);
        store.crashOnDeleteWhere = true; // dies between the switch and the clean-up
        assertThrows(CrashingStore.SimulatedCrash.class, () -> migration(new TenantWriteGate()).run(started));
        store.crashOnDeleteWhere = false;
        assertEquals(embedderB.fingerprint().id(), tenant().activeEmbedder(), "the switch had committed");

        IngestJob interrupted = jobs.unfinishedReembed(TENANT).orElseThrow();
        assertTrue(migration(new TenantWriteGate()).recover(interrupted, ReembedMigration.OnRestart.ROLL_BACK).isEmpty(),
                "a switched migration is never rolled back");

        assertEquals(JobStatus.SUCCEEDED, jobs.find(TENANT, interrupted.id()).orElseThrow().status());
        assertOnlyGeneration(embedderB.fingerprint().id());
    }

    /**
     * The server stops while the run is inside a document's second batch: the stop waits for that batch, then the run
     * ends with its job open (no rollback, no finish), the claim released, the tenant on A; the next server resumes it,
     * skipping the document completed before the stop and re-embedding the one cut short whole.
     */
    @Test
    void aStopEndsTheRunAtTheNextBatchWithItsJobOpenAndTheNextServerResumesIt() throws Exception {
        TenantWriteGate gate = new TenantWriteGate();
        GracefulStop serverStop = new GracefulStop();
        ReembedMigration migration = migration(gate, 1, Duration.ZERO, serverStop);
        CountDownLatch inThirdBatch = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicInteger batches = new AtomicInteger();
        embedderB.beforeDocumentBatch(texts -> {
            if (batches.incrementAndGet() == 3) { // the second document's first chunk (one chunk a batch)
                inThirdBatch.countDown();
                Poll.until("the test lets the batch go on", Duration.ofSeconds(10), () -> proceed.getCount() == 0);
            }
        });
        ReembedMigration.Started started = migration.start(tenant(), CHOICE_B);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<IngestJob> run = thread.submit(() -> migration.run(started));
            assertTrue(inThirdBatch.await(10, TimeUnit.SECONDS));
            serverStop.request();
            assertFalse(serverStop.awaitIdle(Duration.ofMillis(200)), "the stop waits for the batch in progress");
            proceed.countDown();
            assertTrue(serverStop.awaitIdle(Duration.ofSeconds(10)), "the run ends at the next batch");
            assertFalse(run.get(10, TimeUnit.SECONDS).finished());
        } finally {
            thread.shutdownNow();
        }
        assertEquals(3, batches.get(), "no batch after the stop");

        IngestJob open = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertEquals(JobStatus.RUNNING, open.status(), String.valueOf(open));
        assertEquals(1, open.succeeded(), "the document completed before the stop is recorded");
        assertFalse(gate.claimed(TENANT), "the stopping server holds no claim");
        assertEquals(embedderA.fingerprint().id(), tenant().activeEmbedder(), "not switched");
        assertEquals(3, store.count(DEFAULT, MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderB.fingerprint().id()))
                + store.count(TEAM, MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderB.fingerprint().id())), "nothing rolled back");
        IngestException refused = assertThrows(IngestException.class, () -> migration.start(tenant(), CHOICE_B));
        assertEquals(503, refused.status());
        assertEquals("server-stopping", refused.type());
        assertTrue(migration.recover(open, ReembedMigration.OnRestart.RESUME).isEmpty(), "the stopping server adopts nothing");
        assertEquals(JobStatus.RUNNING, jobs.find(TENANT, open.id()).orElseThrow().status());

        TenantWriteGate next = new TenantWriteGate();
        ReembedMigration.Started resumed = migration(next).recover(open, ReembedMigration.OnRestart.RESUME).orElseThrow();
        int embeddedBefore = embedderB.documentsEmbedded();
        IngestJob done = migration(next).run(resumed);
        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(1, done.skipped());
        assertEquals(4, done.succeeded(), "the document cut short is re-embedded whole");
        assertEquals(8, embedderB.documentsEmbedded() - embeddedBefore);
        assertOnlyGeneration(embedderB.fingerprint().id());
    }

    /** A copy that fails once the stop began (the closing persistence unit, a closed embedder) is not taken for a reason to roll back. */
    @Test
    void aFailureAfterTheStopBeganLeavesTheJobOpenInsteadOfRollingBack() {
        TenantWriteGate gate = new TenantWriteGate();
        GracefulStop serverStop = new GracefulStop();
        ReembedMigration migration = migration(gate, 8, Duration.ZERO, serverStop);
        failTheHarbourDocument(() -> {
            serverStop.request();
            throw new IllegalStateException("EntityManagerFactory is closed");
        });
        ReembedMigration.Started started = migration.start(tenant(), CHOICE_B);
        IngestJob left = migration.run(started);

        assertFalse(left.finished());
        IngestJob open = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertFalse(open.finished(), String.valueOf(open));
        assertFalse(gate.claimed(TENANT));
        long copied = store.count(DEFAULT, MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderB.fingerprint().id()));
        assertEquals(2L * open.succeeded(), copied + store.count(TEAM, MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderB.fingerprint().id())),
                "the documents copied before the failure are kept for the resume");

        embedderB.beforeDocumentBatch(texts -> {});
        TenantWriteGate next = new TenantWriteGate();
        IngestJob done = migration(next).run(migration(next).recover(open, ReembedMigration.OnRestart.RESUME).orElseThrow());
        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertOnlyGeneration(embedderB.fingerprint().id());
    }

    /** The stop cuts the drain after the switch short; the recovery then removes the old generation and ends the job. */
    @Test
    void aStopDuringTheDrainLeavesTheSwitchedJobForTheRecoveryToFinish() throws Exception {
        CountDownLatch switched = new CountDownLatch(1);
        TenantRepository signalling = (TenantRepository) java.lang.reflect.Proxy.newProxyInstance(TenantRepository.class.getClassLoader(),
                new Class<?>[] {TenantRepository.class}, (proxy, method, args) -> {
                    Object result = invoke(method, tenants, args);
                    if (method.getName().equals("switchEmbedder")) {
                        switched.countDown();
                    }
                    return result;
                });
        GracefulStop serverStop = new GracefulStop();
        ReembedMigration migration = new ReembedMigration(signalling, registry, jobs, new TenantWriteGate(), runtimes, 8, Duration.ofSeconds(1),
                Duration.ofMinutes(5), serverStop);
        ReembedMigration.Started started = migration.start(tenant(), CHOICE_B);
        ExecutorService thread = Executors.newSingleThreadExecutor();
        try {
            Future<IngestJob> run = thread.submit(() -> migration.run(started));
            assertTrue(switched.await(10, TimeUnit.SECONDS)); // the test's control plane is one connection: no reads meanwhile
            serverStop.request();
            assertTrue(serverStop.awaitIdle(Duration.ofSeconds(10)), "the five-minute drain is cut short");
            assertFalse(run.get(10, TimeUnit.SECONDS).finished());
        } finally {
            thread.shutdownNow();
        }
        assertTrue(store.count(DEFAULT, MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderA.fingerprint().id())) > 0,
                "the old generation is left for the recovery");
        IngestJob open = jobs.unfinishedReembed(TENANT).orElseThrow();

        assertTrue(migration(new TenantWriteGate()).recover(open, ReembedMigration.OnRestart.RESUME).isEmpty());
        assertEquals(JobStatus.SUCCEEDED, jobs.find(TENANT, open.id()).orElseThrow().status());
        assertOnlyGeneration(embedderB.fingerprint().id());
    }

    @Test
    void aCorpusLargerThanOneRegistryPageIsMigratedWhole() {
        for (int i = 0; i < 250; i++) {
            write(DEFAULT, String.format("bulk-%03d", i), List.of("Bulk note " + i + " about lanterns."));
        }
        IngestJob done = migration(new TenantWriteGate()).run(migration(new TenantWriteGate()).start(tenant(), CHOICE_B));

        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done.error()));
        assertEquals(255, done.total());
        assertEquals(255, done.succeeded());
        assertEquals(256, store.count(DEFAULT, MetadataFilter.eq(ReservedKeys.EMBEDDER, embedderB.fingerprint().id())));
        assertEquals(256, store.count(DEFAULT, MetadataFilter.all()), "and nothing of the old generation");
    }

    /**
     * A migration as one process runs it: once the store has crashed since it was made, the process is dead and its
     * control-plane calls fail, so the {@link Error} that stands for the crash leaves the job open, as a real crash would.
     */
    private ReembedMigration migration(TenantWriteGate gate) {
        return migration(gate, 8, Duration.ZERO, new GracefulStop());
    }

    /** {@code serverStop}: the stop of the server that runs it (a fresh one for each server of a test). */
    private ReembedMigration migration(TenantWriteGate gate, int embedBatchSize, Duration drain, GracefulStop serverStop) {
        int crashesBefore = store.crashes();
        return new ReembedMigration(ofThisProcess(TenantRepository.class, tenants, crashesBefore), registry,
                ofThisProcess(JobRepository.class, jobs, crashesBefore), gate, runtimes, embedBatchSize, Duration.ofSeconds(1), drain, serverStop);
    }

    private <T> T ofThisProcess(Class<T> type, T live, int crashesBefore) {
        return type.cast(java.lang.reflect.Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            if (store.crashes() > crashesBefore) {
                throw new IllegalStateException("the process is dead");
            }
            return invoke(method, live, args);
        }));
    }

    private static Object invoke(java.lang.reflect.Method method, Object target, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (java.lang.reflect.InvocationTargetException e) {
            throw e.getCause();
        }
    }

    private Tenant tenant() {
        return tenants.find(TENANT).orElseThrow();
    }

    private RetrievalResponse retrieve(RetrievalService retrieval, Namespace namespace) {
        Tenant tenant = tenant();
        Actor actor = new Actor(TENANT, "reader", null, null, null);
        return retrieval.retrieve(AccessDecision.decide(actor, tenant, namespace, null, null), runtimes.apply(tenant.definition()),
                new RetrieveCommand("who lights the lanterns", "vector", 5, null, null, null, null, 0, null));
    }

    /** Every chunk of both namespaces is of one generation, complete, and unchanged apart from its vector and id. */
    private void assertOnlyGeneration(String embedderId) {
        boolean migrated = embedderId.equals(embedderB.fingerprint().id());
        for (Namespace namespace : List.of(DEFAULT, TEAM)) {
            List<Chunk> chunks = new ArrayList<>();
            CORPUS.get(namespace).keySet().forEach(id -> chunks.addAll(store.documentChunks(namespace, id)));
            assertEquals(CORPUS.get(namespace).values().stream().mapToInt(List::size).sum(), chunks.size(), namespace + ": " + chunks);
            for (Chunk chunk : chunks) {
                assertEquals(embedderId, chunk.metadata().get(ReservedKeys.EMBEDDER), chunk.id());
                assertEquals(originalTexts.get(namespace.key() + "/" + chunk.documentId() + "#" + chunk.index()), chunk.text());
                assertEquals(List.of("Heading " + chunk.documentId()), chunk.headingPath());
                assertEquals("en", chunk.metadata().get("lang"));
                int version = ((Number) chunk.metadata().get(ReservedKeys.VERSION)).intValue();
                String expectedId = migrated ? NamespacedChunkIds.of(namespace, chunk.documentId(), version, chunk.index(), embedderId)
                        : NamespacedChunkIds.of(namespace, chunk.documentId(), version, chunk.index());
                assertEquals(expectedId, chunk.id());
            }
        }
        assertNotNull(tenant());
    }

    private void write(Namespace namespace, String documentId, List<String> texts) {
        int version = registry.beginVersion(namespace, documentId, documentId + ".md", "text/markdown", Map.of(), 100);
        List<Chunk> chunks = IntStream.range(0, texts.size()).mapToObj(i -> new Chunk("c" + i, documentId, i, texts.get(i),
                List.of("Heading " + documentId), Map.of("lang", "en"))).toList();
        new ChunkIndexer(new IsolationGuard(store, namespace, 1), namespace, embedderA, new HeadingContextualizer())
                .index(ReservedKeyStamper.stampAll(chunks, namespace, documentId, version));
        registry.activateVersion(namespace, documentId, version, "hash-" + documentId, chunks.size(), String.join("\n\n", texts),
                new DocumentDescription(documentId + ".md", "text/markdown", Map.of(), 100));
        chunks.forEach(c -> originalTexts.put(namespace.key() + "/" + documentId + "#" + c.index(), c.text()));
    }
}
