package io.corpora.server.persistence;

import io.corpora.testkit.ForwardingVectorStore;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.engine.index.ChunkIndexer;
import io.corpora.engine.index.HeadingContextualizer;
import io.corpora.ingest.GracefulStop;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.ReembedMigration;
import io.corpora.ingest.StoreRelocation;
import io.corpora.ingest.TenantWriteGate;
import io.corpora.plugin.loader.PluginManager;
import io.corpora.retrieval.RetrievalResponse;
import io.corpora.retrieval.RetrievalService;
import io.corpora.retrieval.RetrieveCommand;
import io.corpora.runtime.TenantRuntime;
import io.corpora.runtime.TenantRuntimes;
import io.corpora.runtime.guard.GuardContext;
import io.corpora.runtime.guard.GuardPolicy;
import io.corpora.runtime.guard.PluginCallObserver;
import io.corpora.runtime.guard.PluginGuards;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.EmbedderFingerprint;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.embed.Embedder;
import io.corpora.spi.Namespace;
import io.corpora.spi.filter.Actor;
import io.corpora.spi.store.VectorStore;
import io.corpora.tenancy.AccessDecision;
import io.corpora.tenancy.IsolationGuard;
import io.corpora.tenancy.ReservedKeyStamper;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Store relocation on real stores — Lucene → pgvector (shared table) → pgvector (a dedicated table) — with the real
 * plugins (loaded through the plugin loader), the real ONNX embedder and the JPA control plane (H2). The copy is
 * observed from inside the target's writes: retrieves then still answer from the source, and writes are refused. A
 * crash is an {@link Error} thrown by the target mid-copy (nothing catches it, as nothing survives a dead process);
 * recovery then runs on a fresh gate and relocation object, as after a restart.
 */
class StoreRelocationTest {

    private static final String TENANT = "reloc";
    private static final Namespace DEFAULT = Namespace.of(TENANT);
    private static final Namespace TEAM = Namespace.of(TENANT, "team");
    private static final String SHARED_TABLE = "it_relocation_shared";
    private static final String DEDICATED_TABLE = "it_relocation_dedicated";
    private static final String QUERY = "who lights the lanterns";
    private static final Map<Namespace, Map<String, List<String>>> CORPUS = Map.of(
            DEFAULT, Map.of("lanterns", List.of("Lanterns are lit at dusk by the keeper.", "Oil lanterns need wicks trimmed weekly."),
                    "harbour", List.of("The harbour closes at midnight.", "Ferries leave the harbour hourly."),
                    "policy", List.of("Refunds within thirty days.", "Receipts are required for refunds.")),
            TEAM, Map.of("roster", List.of("Ana lights the lanterns on Mondays.", "Ben trims the wicks on Fridays."),
                    "shed", List.of("Team policy: lanterns stay in the shed.", "Shed keys hang by the door.")));
    private static final int DOCUMENTS = 5;

    @TempDir
    Path data;

    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private DocumentRegistry registry;
    private JobRepository jobs;
    private TenantRuntimes runtimes;
    private final java.util.concurrent.ExecutorService pluginCalls = java.util.concurrent.Executors.newCachedThreadPool();
    private String pgUrl;
    /** Runs inside each write to the relocation target, before it reaches the store (null: none). */
    private Consumer<Namespace> duringCopy;
    /**
     * Set by a simulated crash: the dead process writes nothing more, neither to the control plane nor to the target,
     * so the {@link Error} that stands for the crash leaves the job open, as a real crash would.
     */
    private volatile boolean processDead;
    /** The target store refuses to delete the tenant's data (a rollback's cleanup fails). */
    private volatile boolean targetDeletesFail;
    /** The source store cannot return its vectors (an SPI 1.0 to 1.3 store), so the copy embeds the chunk texts again. */
    private volatile boolean sourceKeepsNoVectors;
    /** The target runtime's embedder stamps this fingerprint instead of its own (an upgraded model; null: its own). */
    private volatile EmbedderFingerprint targetFingerprint;

    @BeforeEach
    void seed() throws Exception {
        pgUrl = System.getenv("CORPORA_TEST_PG_URL");
        Assumptions.assumeTrue(pgUrl != null && !pgUrl.isBlank(), "CORPORA_TEST_PG_URL names the PostgreSQL (pgvector) database");
        dropTables();
        jpa = ControlPlaneJpa.h2(data.resolve("control"));
        Clock clock = Clock.systemUTC();
        tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        registry = jpa.transactional(DocumentRegistry.class, jpa.documents(clock));
        jobs = jpa.transactional(JobRepository.class, jpa.jobs(clock));
        runtimes = new TenantRuntimes(PluginManager.load(Path.of(System.getProperty("corpora.test.plugins.dir", "target/plugins"))),
                data.resolve("stores"), key -> Optional.empty(),
                new PluginGuards(GuardPolicy::defaults, GuardContext.system(pluginCalls, PluginCallObserver.NONE)));
        tenants.create(new TenantDefinition(TENANT, null, null, lucene(), new PluginChoice("onnx", Map.of()), null, null, null,
                new AccessPolicy(null, List.of("team"))));
        TenantRuntime runtime = runtimes.runtime(tenant().definition());
        CORPUS.forEach((namespace, documents) -> documents.forEach((id, texts) -> write(runtime, namespace, id, texts)));
        tenants.setActiveEmbedder(TENANT, runtime.embedderId());
    }

    @AfterEach
    void close() throws Exception {
        if (runtimes != null) {
            runtimes.close();
        }
        pluginCalls.shutdownNow();
        if (jpa != null) {
            jpa.close();
        }
        if (pgUrl != null && !pgUrl.isBlank()) {
            dropTables();
        }
    }

    @Test
    void luceneToSharedPgvectorToADedicatedTableServesTheSamePassagesThroughoutAndDeletesEachSource() {
        Map<Namespace, List<String>> before = passages();

        relocateWhileObserving(pgvector(SHARED_TABLE), before);
        assertEquals(pgvector(SHARED_TABLE), tenant().definition().store(), "the switch pointed the tenant at the target");
        assertEquals(before, passages(), "after the switch the target answers with the same passages");
        VectorStore lucene = runtimes.runtime(tenant().definition().withStore(lucene())).store();
        for (Namespace namespace : List.of(DEFAULT, TEAM)) {
            assertEquals(0, lucene.count(namespace, MetadataFilter.all()), "the Lucene copy is deleted: " + namespace);
        }

        relocateWhileObserving(pgvector(DEDICATED_TABLE), before);
        assertEquals(pgvector(DEDICATED_TABLE), tenant().definition().store());
        assertEquals(before, passages(), "the dedicated table answers with the same passages");
        VectorStore shared = runtimes.runtime(tenant().definition().withStore(pgvector(SHARED_TABLE))).store();
        VectorStore dedicated = runtimes.runtime(tenant().definition()).store();
        for (Namespace namespace : List.of(DEFAULT, TEAM)) {
            assertEquals(0, shared.count(namespace, MetadataFilter.all()), "the shared table no longer holds the tenant: " + namespace);
            assertEquals(chunkCount(namespace), dedicated.count(namespace, MetadataFilter.all()), namespace.toString());
        }
        new TenantWriteGate().write(TENANT, () -> "writes are open again"); // a fresh gate: nothing in the control plane holds them
        registryWriteSucceeds();
    }

    @Test
    void theSameLocationIsRefusedAndAnInterruptedCopyResumesSkippingWhatWasCopied() {
        StoreRelocation relocation = relocation(new TenantWriteGate());
        IngestException same = assertThrows(IngestException.class, () -> relocation.start(tenant(),
                new PluginChoice("lucene", Map.of("quantization", "int8"))));
        assertEquals(409, same.status());
        assertEquals("store-unchanged", same.type(), "quantization is not a location option: nothing to move");

        Map<Namespace, List<String>> before = passages();
        failOnWrite(3, () -> {
            processDead = true;
            throw new AssertionError("the server dies in the middle of the copy");
        });
        StoreRelocation.Started started = relocation.start(tenant(), pgvector(SHARED_TABLE));
        assertThrows(AssertionError.class, () -> relocation.run(started));
        IngestJob interrupted = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertEquals(JobStatus.RUNNING, interrupted.status());
        assertEquals(2, interrupted.succeeded(), "two documents were copied before the crash");
        assertEquals(lucene(), tenant().definition().store(), "no switch before the copy completes");
        assertEquals(before, passages(), "the source keeps serving");

        duringCopy = null;
        processDead = false;
        StoreRelocation restarted = relocation(new TenantWriteGate());
        StoreRelocation.Started resumed = restarted.recover(interrupted, ReembedMigration.OnRestart.RESUME).orElseThrow();
        IngestJob done = restarted.run(resumed);
        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(DOCUMENTS, done.total());
        assertEquals(2, done.skipped(), "the documents copied before the crash are not copied again");
        assertEquals(DOCUMENTS - 2, done.succeeded());
        assertEquals(pgvector(SHARED_TABLE), tenant().definition().store());
        assertEquals(before, passages());
    }

    /**
     * The server's stop, asked for while the third document is written, ends the copy before the fourth: the job stays
     * open with three documents copied and nothing rolled back, the source serves, a new start on the stopping server is
     * 503; the next server resumes it, skipping the three.
     */
    @Test
    void aStopEndsTheCopyBetweenDocumentsWithItsJobOpenAndTheNextServerResumesIt() {
        GracefulStop serverStop = new GracefulStop();
        StoreRelocation relocation = relocation(new TenantWriteGate(), serverStop);
        Map<Namespace, List<String>> before = passages();
        failOnWrite(3, serverStop::request);
        StoreRelocation.Started started = relocation.start(tenant(), pgvector(SHARED_TABLE));

        assertFalse(relocation.run(started).finished());
        IngestJob open = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertEquals(JobStatus.RUNNING, open.status(), String.valueOf(open));
        assertEquals(3, open.succeeded(), "the document being written when the stop came is finished, no other begun");
        assertEquals(lucene(), tenant().definition().store());
        assertEquals(before, passages(), "the source keeps serving");
        VectorStore target = runtimes.runtime(tenant().definition().withStore(pgvector(SHARED_TABLE))).store();
        assertTrue(target.count(DEFAULT, MetadataFilter.all()) + target.count(TEAM, MetadataFilter.all()) > 0, "nothing rolled back");
        IngestException refused = assertThrows(IngestException.class, () -> relocation.start(tenant(), pgvector(SHARED_TABLE)));
        assertEquals(503, refused.status());
        assertEquals("server-stopping", refused.type());

        duringCopy = null;
        StoreRelocation next = relocation(new TenantWriteGate());
        IngestJob done = next.run(next.recover(open, ReembedMigration.OnRestart.RESUME).orElseThrow());
        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(3, done.skipped());
        assertEquals(DOCUMENTS - 3, done.succeeded());
        assertEquals(pgvector(SHARED_TABLE), tenant().definition().store());
        assertEquals(before, passages());
    }

    /**
     * A source that keeps no vectors has each document embedded again, here one chunk per batch: the stop, asked for
     * while the second document's first batch is written, ends the copy before its second batch — not after the whole
     * document — without counting the document as failed; the next server copies it again whole and serves the same.
     */
    @Test
    void aStopEndsACopyThatEmbedsAgainBetweenTwoBatchesOfOneDocument() {
        sourceKeepsNoVectors = true;
        GracefulStop serverStop = new GracefulStop();
        StoreRelocation relocation = relocation(new TenantWriteGate(), serverStop, 1);
        Map<Namespace, List<String>> before = passages();
        failOnWrite(3, serverStop::request); // writes 1 and 2: the first document's two chunks; 3: the second's first

        StoreRelocation.Started started = relocation.start(tenant(), pgvector(SHARED_TABLE));
        assertFalse(relocation.run(started).finished());
        IngestJob open = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertEquals(JobStatus.RUNNING, open.status(), String.valueOf(open));
        assertEquals(1, open.succeeded(), "the document cut short is not counted");
        assertEquals(0, open.failed(), "nor is it a failure");
        VectorStore target = runtimes.runtime(tenant().definition().withStore(pgvector(SHARED_TABLE))).store();
        assertEquals(3, target.count(DEFAULT, MetadataFilter.all()) + target.count(TEAM, MetadataFilter.all()),
                "the first document whole and one batch of the second: no batch after the stop");

        duringCopy = null;
        StoreRelocation next = relocation(new TenantWriteGate(), new GracefulStop(), 1);
        IngestJob done = next.run(next.recover(open, ReembedMigration.OnRestart.RESUME).orElseThrow());
        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(1, done.skipped(), "only the complete document is skipped");
        assertEquals(DOCUMENTS - 1, done.succeeded(), "the one cut short is copied again whole");
        assertEquals(pgvector(SHARED_TABLE), tenant().definition().store());
        assertEquals(before, passages());
    }

    @Test
    void aRollBackOnRestartDeletesTheTargetCopyAndKeepsTheSource() {
        StoreRelocation relocation = relocation(new TenantWriteGate());
        duringCopy = namespace -> {
            processDead = true;
            throw new AssertionError("the server dies");
        };
        StoreRelocation.Started started = relocation.start(tenant(), pgvector(SHARED_TABLE));
        assertThrows(AssertionError.class, () -> relocation.run(started));
        duringCopy = null;
        processDead = false;
        Map<Namespace, List<String>> before = passages();

        Optional<StoreRelocation.Started> none = relocation(new TenantWriteGate()).recover(jobs.find(TENANT, started.job().id()).orElseThrow(),
                ReembedMigration.OnRestart.ROLL_BACK);
        assertTrue(none.isEmpty());
        IngestJob failed = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertEquals(JobStatus.FAILED, failed.status());
        assertTrue(failed.error().contains("rolled back"), failed.error());
        assertEquals(lucene(), tenant().definition().store());
        assertEquals(before, passages());
        VectorStore target = runtimes.runtime(tenant().definition().withStore(pgvector(SHARED_TABLE))).store();
        assertEquals(0, target.count(DEFAULT, MetadataFilter.all()), "the target copy is deleted");
        registryWriteSucceeds();
    }

    @Test
    void aTargetThatAlreadyHoldsTheTenantUnderAnotherSpellingIsRefusedAndNothingIsDeleted() {
        StoreRelocation relocation = relocation(new TenantWriteGate());
        IngestJob moved = relocation.run(relocation.start(tenant(), pgvector(SHARED_TABLE)));
        assertEquals(JobStatus.SUCCEEDED, moved.status(), String.valueOf(moved));
        Map<Namespace, List<String>> before = passages();

        // Another jdbcUrl spelling of the same database: other option strings, the same table.
        PluginChoice sameTable = new PluginChoice("pgvector", Map.of("jdbcUrl", pgUrl + "&ApplicationName=corpora-alias", "table", SHARED_TABLE,
                "ensureSchema", "true"));
        IngestException refused = assertThrows(IngestException.class, () -> relocation.start(tenant(), sameTable));
        assertEquals(409, refused.status());
        assertEquals("target-not-empty", refused.type(), refused.getMessage());
        assertTrue(jobs.unfinishedMigration(TENANT).isEmpty(), "no job was recorded");
        assertEquals(pgvector(SHARED_TABLE), tenant().definition().store());
        VectorStore shared = runtimes.runtime(tenant().definition()).store();
        for (Namespace namespace : List.of(DEFAULT, TEAM)) {
            assertEquals(chunkCount(namespace), shared.count(namespace, MetadataFilter.all()), "nothing was deleted: " + namespace);
        }
        assertEquals(before, passages());
        registryWriteSucceeds();
    }

    /** A source missing a chunk the registry counts is not copied short: the document fails as index-incomplete. */
    @Test
    void aDocumentTheSourceHoldsOnlyInPartIsRefusedAsIndexIncompleteAndTheRelocationRollsBack() {
        VectorStore source = runtimes.runtime(tenant().definition()).store();
        String lost = source.documentChunks(TEAM, "roster").get(0).id();
        assertEquals(1, source.deleteChunks(TEAM, List.of(lost)));
        Map<Namespace, List<String>> before = passages();
        TenantWriteGate gate = new TenantWriteGate();
        StoreRelocation relocation = relocation(gate);

        IngestJob ended = relocation.run(relocation.start(tenant(), pgvector(SHARED_TABLE)));

        assertEquals(JobStatus.FAILED, ended.status(), String.valueOf(ended));
        IngestJob.Outcome roster = ended.outcomes().stream().filter(o -> "roster".equals(o.documentId())).findFirst().orElseThrow();
        assertEquals(409, roster.status(), roster.toString());
        assertEquals("index-incomplete", roster.problem(), roster.toString());
        assertTrue(roster.error().contains("the source store holds 1 of the 2 chunks") && roster.error().contains("partition team"), roster.error());
        assertEquals(lucene(), tenant().definition().store(), "rolled back: the tenant stays where it was");
        assertEquals(before, passages(), "the source still serves");
        assertEquals("open", gate.write(TENANT, () -> "open"));
    }

    /** A source that cannot return its vectors: each document is embedded again, by the embedder that embedded it. */
    @Test
    void aSourceThatCannotReturnItsVectorsIsEmbeddedAgainAndServesTheSamePassages() {
        Map<Namespace, List<String>> before = passages();
        sourceKeepsNoVectors = true;
        StoreRelocation relocation = relocation(new TenantWriteGate());

        IngestJob ended = relocation.run(relocation.start(tenant(), pgvector(SHARED_TABLE)));

        assertEquals(JobStatus.SUCCEEDED, ended.status(), String.valueOf(ended));
        assertEquals(DOCUMENTS, ended.succeeded());
        assertEquals(pgvector(SHARED_TABLE), tenant().definition().store());
        assertEquals(before, passages(), "the texts embedded again give the vectors the source held");
    }

    /**
     * A source that cannot return its vectors while the tenant's embedder now stamps another fingerprint: embedding the
     * texts again would mix two embedders' vectors in one corpus, so each document is refused as embedder-mismatch.
     */
    @Test
    void aSourceThatCannotReturnItsVectorsUnderAnotherEmbedderIsRefusedAsEmbedderMismatchAndRollsBack() {
        Map<Namespace, List<String>> before = passages();
        String served = tenant().activeEmbedder();
        sourceKeepsNoVectors = true;
        targetFingerprint = new EmbedderFingerprint("onnx", "upgraded-model", 384, true, "2");
        TenantWriteGate gate = new TenantWriteGate();
        StoreRelocation relocation = relocation(gate);

        IngestJob ended = relocation.run(relocation.start(tenant(), pgvector(SHARED_TABLE)));

        assertEquals(JobStatus.FAILED, ended.status(), String.valueOf(ended));
        assertFalse(ended.outcomes().isEmpty());
        for (IngestJob.Outcome outcome : ended.outcomes()) {
            assertEquals(409, outcome.status(), outcome.toString());
            assertEquals("embedder-mismatch", outcome.problem(), outcome.toString());
            assertTrue(outcome.error().contains(targetFingerprint.id()) && outcome.error().contains(served), outcome.error());
        }
        assertEquals(lucene(), tenant().definition().store(), "rolled back: the tenant stays where it was");
        assertEquals(served, tenant().activeEmbedder());
        VectorStore target = runtimes.runtime(tenant().definition().withStore(pgvector(SHARED_TABLE))).store();
        assertEquals(0, target.count(DEFAULT, MetadataFilter.all()), "nothing embedded by the other model is left in the target");
        assertEquals(before, passages(), "the source still serves");
        assertEquals("open", gate.write(TENANT, () -> "open"));
    }

    @Test
    void aRollBackWhoseTargetCannotBeDeletedStillFailsTheJobAndReopensTheTenantsWrites() {
        TenantWriteGate gate = new TenantWriteGate();
        StoreRelocation relocation = relocation(gate);
        Map<Namespace, List<String>> before = passages();
        failOnWrite(2, () -> {
            throw new IllegalStateException("the target at db2.internal:5432 refuses a write");
        });
        targetDeletesFail = true;
        IngestJob ended = relocation.run(relocation.start(tenant(), pgvector(SHARED_TABLE)));
        duringCopy = null;

        assertEquals(JobStatus.FAILED, ended.status(), String.valueOf(ended));
        IngestJob.Outcome failed = ended.outcomes().stream().filter(o -> "failed".equals(o.result())).findFirst().orElseThrow();
        assertEquals(500, failed.status(), failed.toString());
        assertEquals("internal-error", failed.problem(), failed.toString());
        assertFalse(failed.error().contains("db2.internal") || ended.error().contains("db2.internal"),
                "the store's own words stay in the server log: " + ended);
        assertTrue(ended.error().contains("rolled back") && ended.error().contains("the target copy could not be deleted"), ended.error());
        assertEquals(JobStatus.FAILED, jobs.find(TENANT, ended.id()).orElseThrow().status(), "the job is closed in the control plane");
        assertEquals(lucene(), tenant().definition().store());
        assertEquals(before, passages(), "the source still serves");
        assertEquals("open", gate.write(TENANT, () -> "open"), "this server's writes are open again");
        registryWriteSucceeds(); // and every server's activations
        IngestException leftover = assertThrows(IngestException.class, () -> relocation.start(tenant(), pgvector(SHARED_TABLE)));
        assertEquals("target-not-empty", leftover.type(), "the copy left in the target must be deleted before relocating there again");
    }

    @Test
    void anErrorThatKillsOnlyTheRelocationThreadRollsItBackAndClosesTheJob() {
        TenantWriteGate gate = new TenantWriteGate();
        StoreRelocation relocation = relocation(gate);
        Map<Namespace, List<String>> before = passages();
        failOnWrite(2, () -> {
            throw new StackOverflowError("the relocation thread dies; the server lives on");
        });
        StoreRelocation.Started started = relocation.start(tenant(), pgvector(SHARED_TABLE));
        assertThrows(StackOverflowError.class, () -> relocation.run(started));
        duringCopy = null;

        IngestJob ended = jobs.find(TENANT, started.job().id()).orElseThrow();
        assertEquals(JobStatus.FAILED, ended.status(), String.valueOf(ended));
        assertTrue(ended.error().contains("StackOverflowError"), ended.error());
        assertEquals(lucene(), tenant().definition().store());
        assertEquals(before, passages());
        VectorStore target = runtimes.runtime(tenant().definition().withStore(pgvector(SHARED_TABLE))).store();
        assertEquals(0, target.count(DEFAULT, MetadataFilter.all()), "the target copy is deleted");
        assertEquals("open", gate.write(TENANT, () -> "open"));
        registryWriteSucceeds();
    }

    /** Relocates to {@code target}, checking inside every target write that reads come from the source and writes are refused. */
    private void relocateWhileObserving(PluginChoice target, Map<Namespace, List<String>> expected) {
        TenantWriteGate gate = new TenantWriteGate();
        StoreRelocation relocation = relocation(gate);
        PluginChoice source = tenant().definition().store();
        List<String> observed = new ArrayList<>();
        duringCopy = namespace -> {
            assertEquals(source, tenant().definition().store(), "no switch during the copy");
            assertEquals(expected, passages(), "retrieves during the copy answer from the source");
            IngestException refused = assertThrows(IngestException.class, () -> gate.write(TENANT, () -> "an ingest"));
            assertEquals("migration-in-progress", refused.type());
            assertTrue(refused.getMessage().contains("a store relocation of tenant"), refused.getMessage());
            WriteRefusedException activation = assertThrows(WriteRefusedException.class, this::writeThroughRegistry,
                    "another server's activation is refused by the control plane");
            assertEquals(WriteRefusedException.Reason.MIGRATION_IN_PROGRESS, activation.reason());
            observed.add(namespace.key());
        };
        StoreRelocation.Started started = relocation.start(tenant(), target);
        assertEquals(JobKind.RELOCATE, started.job().kind());
        assertEquals(DOCUMENTS, started.job().total());
        IngestJob done = relocation.run(started);
        duringCopy = null;
        assertEquals(JobStatus.SUCCEEDED, done.status(), String.valueOf(done));
        assertEquals(DOCUMENTS, done.succeeded());
        assertEquals(100, done.percent());
        assertEquals(DOCUMENTS, observed.size(), "one target write per document: " + observed);
    }

    private StoreRelocation relocation(TenantWriteGate gate) {
        return relocation(gate, new GracefulStop());
    }

    private StoreRelocation relocation(TenantWriteGate gate, GracefulStop serverStop) {
        return relocation(gate, serverStop, IngestLimits.DEFAULT.embedBatchSize());
    }

    /**
     * {@code serverStop}: the stop of the server that runs it (a fresh one for each server of a test);
     * {@code embedBatchSize}: chunks embedded at once when the source keeps no vectors.
     */
    private StoreRelocation relocation(TenantWriteGate gate, GracefulStop serverStop, int embedBatchSize) {
        Function<TenantDefinition, TenantRuntime> observed = definition -> {
            TenantRuntime runtime = runtimes.runtime(definition);
            if (definition.store().equals(tenant().definition().store())) {
                return sourceKeepsNoVectors ? withStore(runtime, new ForwardingVectorStore(runtime.store()) {
                    @Override
                    public Optional<Map<String, float[]>> storedVectors(Namespace namespace, java.util.Collection<String> chunkIds) {
                        return Optional.empty();
                    }
                }) : runtime;
            }
            VectorStore store = new ForwardingVectorStore(runtime.store()) {
                @Override
                public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
                    if (duringCopy != null) {
                        duringCopy.accept(namespace);
                    }
                    super.upsert(namespace, chunks);
                }

                @Override
                public void deleteNamespace(Namespace namespace) {
                    if (processDead || targetDeletesFail) {
                        throw new IllegalStateException("the target store refuses the delete");
                    }
                    super.deleteNamespace(namespace);
                }
            };
            TenantRuntime target = withStore(runtime, store);
            EmbedderFingerprint fingerprint = targetFingerprint;
            return fingerprint == null ? target : target.withEmbedder(stamping(fingerprint, runtime.embedder()));
        };
        return new StoreRelocation(tenants, registry, jobsOfThisProcess(), gate, observed, runtimes::storeLocation, Duration.ofSeconds(1),
                Duration.ZERO, embedBatchSize, serverStop);
    }

    private static TenantRuntime withStore(TenantRuntime runtime, VectorStore store) {
        return new TenantRuntime(runtime.definition(), store, runtime.embedder(), runtime.reranker(), runtime.filterHook(), runtime.chunking(),
                runtime.generator());
    }

    /** {@code embedder}'s vectors under another fingerprint, as after a model upgrade. */
    private static Embedder stamping(EmbedderFingerprint fingerprint, Embedder embedder) {
        return new Embedder() {
            @Override
            public EmbedderFingerprint fingerprint() {
                return fingerprint;
            }

            @Override
            public List<float[]> embedDocuments(List<String> texts) {
                return embedder.embedDocuments(texts);
            }

            @Override
            public float[] embedQuery(String query) {
                return embedder.embedQuery(query);
            }
        };
    }

    /** The job repository as this process sees it: unusable once it is {@link #processDead dead}. */
    private JobRepository jobsOfThisProcess() {
        JobRepository live = jobs;
        return (JobRepository) java.lang.reflect.Proxy.newProxyInstance(JobRepository.class.getClassLoader(), new Class<?>[] {JobRepository.class},
                (proxy, method, args) -> {
                    if (processDead) {
                        throw new IllegalStateException("the process is dead");
                    }
                    try {
                        return method.invoke(live, args);
                    } catch (java.lang.reflect.InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    /** The passages (chunk id, score to 4 decimals, text) a vector retrieve answers in each namespace, in rank order. */
    /** The copy's {@code n}-th document write (counted over every namespace) runs {@code failure} first. */
    private void failOnWrite(int n, Runnable failure) {
        AtomicInteger writes = new AtomicInteger();
        duringCopy = namespace -> {
            if (writes.incrementAndGet() == n) {
                failure.run();
            }
        };
    }

    private Map<Namespace, List<String>> passages() {
        Tenant tenant = tenant();
        RetrievalService retrieval = new RetrievalService(registry::activeVersions, 4);
        Map<Namespace, List<String>> passages = new java.util.LinkedHashMap<>();
        for (Namespace namespace : List.of(DEFAULT, TEAM)) {
            Actor actor = new Actor(TENANT, "reader", null, null, null);
            RetrievalResponse response = retrieval.retrieve(AccessDecision.decide(actor, tenant, namespace, null, null),
                    runtimes.runtime(tenant.definition()), new RetrieveCommand(QUERY, "vector", 10, null, null, null, null, 0, null));
            passages.put(namespace, response.passages().stream()
                    .map(p -> p.id() + " " + String.format(java.util.Locale.ROOT, "%.4f", p.score()) + " " + p.text()).toList());
        }
        assertFalse(passages.get(DEFAULT).isEmpty());
        return passages;
    }

    /** A version activation as another server's ingest would make it (the control plane decides). */
    private void writeThroughRegistry() {
        int version = registry.beginVersion(DEFAULT, "late", "late.md", "text/markdown", Map.of(), 10);
        registry.activateVersion(DEFAULT, "late", version, "hash-late", 0, "", new DocumentDescription("late.md", "text/markdown", Map.of(), 10),
                tenant().activeEmbedder());
    }

    private void registryWriteSucceeds() {
        writeThroughRegistry();
        assertTrue(registry.find(DEFAULT, "late").orElseThrow().activeVersion() > 0);
    }

    private void write(TenantRuntime runtime, Namespace namespace, String documentId, List<String> texts) {
        int version = registry.beginVersion(namespace, documentId, documentId + ".md", "text/markdown", Map.of(), 100);
        List<Chunk> chunks = IntStream.range(0, texts.size()).mapToObj(i -> new Chunk("c" + i, documentId, i, texts.get(i),
                List.of("Heading " + documentId), Map.of("lang", "en"))).toList();
        new ChunkIndexer(new IsolationGuard(runtime.store(), namespace, 1), namespace, runtime.embedder(), new HeadingContextualizer())
                .index(ReservedKeyStamper.stampAll(chunks, namespace, documentId, version));
        registry.activateVersion(namespace, documentId, version, "hash-" + documentId, chunks.size(), String.join("\n\n", texts),
                new DocumentDescription(documentId + ".md", "text/markdown", Map.of(), 100));
    }

    private static int chunkCount(Namespace namespace) {
        return CORPUS.get(namespace).values().stream().mapToInt(List::size).sum();
    }

    private Tenant tenant() {
        return tenants.find(TENANT).orElseThrow();
    }

    private static PluginChoice lucene() {
        return new PluginChoice("lucene", Map.of());
    }

    private PluginChoice pgvector(String table) {
        return new PluginChoice("pgvector", Map.of("jdbcUrl", pgUrl, "table", table, "ensureSchema", "true"));
    }

    private void dropTables() throws Exception {
        try (Connection connection = DriverManager.getConnection(pgUrl); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + SHARED_TABLE);
            statement.execute("DROP TABLE IF EXISTS " + DEDICATED_TABLE);
        }
    }
}
