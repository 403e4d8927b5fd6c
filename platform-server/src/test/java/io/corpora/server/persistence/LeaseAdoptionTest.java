package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.DocumentStatus;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.ServerLeases;
import io.corpora.controlplane.TenantRepository;
import io.corpora.ingest.IngestRecovery;
import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.VectorSimilarity;
import io.corpora.tenancy.ReservedKeyStamper;
import io.corpora.testkit.ReferenceVectorStore;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Work owned by leases, on the real control-plane repositories (H2, and PostgreSQL when CORPORA_TEST_PG_URL is set):
 * of two servers writing at once, the one whose lease expired has its job closed and its pending version failed by a
 * third, live server; the live writer's job and version are untouched, and the dead one's late writes are fenced off.
 */
class LeaseAdoptionTest {

    private static final long TTL = 15_000;
    private static final String LIVE = "node1@aaaa";
    private static final String DEAD = "node2@bbbb";
    private static final String SURVIVOR = "node3@cccc";

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    private ControlPlaneJpa jpa;

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void onlyTheDeadServersWorkIsAdoptedAndClosedWithItsReason(String database) throws Exception {
        open(database);
        Clock clock = Clock.systemUTC();
        TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        ServerLeases leases = jpa.leases();
        long now = System.currentTimeMillis();
        leases.register(LIVE, "node1", now, TTL);
        leases.register(DEAD, "node2", now - 2 * TTL, TTL); // last renewed two ttls ago: expired
        leases.register(SURVIVOR, "node3", now, TTL);
        assertEquals(List.of(LIVE, SURVIVOR), leases.live(now).stream().map(ServerLeases.Lease::serverId).sorted().toList());

        JobRepository liveJobs = jobsOf(LIVE, clock);
        JobRepository deadJobs = jobsOf(DEAD, clock);
        DocumentRegistry liveRegistry = registryOf(LIVE, clock);
        DocumentRegistry deadRegistry = registryOf(DEAD, clock);
        Namespace namespace = Namespace.of("acme");
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);

        IngestJob liveJob = liveJobs.create(namespace, 1);
        liveJobs.markRunning(liveJob.id());
        int liveVersion = liveRegistry.beginVersion(namespace, "live-doc", "a.md", "text/markdown", Map.of(), 5);
        write(store, namespace, "live-doc", liveVersion);
        IngestJob deadJob = deadJobs.create(namespace, 2);
        deadJobs.markRunning(deadJob.id());
        deadJobs.recordOutcome(deadJob.id(), new IngestJob.Outcome("done-doc", "stored", 1, 1, 201, null));
        int deadVersion = deadRegistry.beginVersion(namespace, "dead-doc", "b.md", "text/markdown", Map.of(), 5);
        write(store, namespace, "dead-doc", deadVersion);

        assertEquals(List.of(deadJob.id()), leases.orphanedJobs(JobKind.INGEST, now).stream().map(ServerLeases.OrphanedJob::jobId).toList());
        assertEquals(List.of("dead-doc"), leases.orphanedWrites(now).stream().map(ServerLeases.PendingWrite::documentId).toList());

        IngestRecovery.Report report = IngestRecovery.adoptOrphans(tenants, jpa.transactional(DocumentRegistry.class, jpa.documents(clock)),
                jpa.transactional(JobRepository.class, jpa.jobs(clock)), leases, SURVIVOR, now, t -> store);

        assertEquals(1, report.jobsClosed(), report.toString());
        assertEquals(1, report.versionsFailed(), report.toString());
        assertEquals(1, report.chunksRemoved(), report.toString());
        IngestJob closed = deadJobs.find("acme", deadJob.id()).orElseThrow();
        assertEquals(JobStatus.PARTIALLY_FAILED, closed.status(), closed.toString());
        assertEquals(1, closed.succeeded());
        assertEquals(1, closed.failed());
        assertTrue(closed.outcomes().get(1).error().contains(DEAD), "the reason names the dead server: " + closed.outcomes());
        assertEquals("job-interrupted", closed.outcomes().get(1).problem(), closed.outcomes().toString());
        DocumentRecord failed = deadRegistry.find(namespace, "dead-doc").orElseThrow();
        assertEquals(DocumentStatus.FAILED, failed.status());
        assertTrue(store.documentChunks(namespace, "dead-doc").isEmpty(), "the dead server's unfinished chunks are removed");

        // The live server's work is untouched and finishes normally.
        assertEquals(JobStatus.RUNNING, liveJobs.find("acme", liveJob.id()).orElseThrow().status());
        assertEquals(liveVersion, liveRegistry.find(namespace, "live-doc").orElseThrow().pendingVersion());
        liveRegistry.activateVersion(namespace, "live-doc", liveVersion, "h", 1, "text", new DocumentDescription("a.md", "text/markdown", Map.of(), 5));
        liveJobs.recordOutcome(liveJob.id(), new IngestJob.Outcome("live-doc", "stored", liveVersion, 1, 201, null));
        assertEquals(JobStatus.SUCCEEDED, liveJobs.finish(liveJob.id()).status());
        assertEquals(1, store.documentChunks(namespace, "live-doc").size());

        // The dead server, had it only paused, is fenced: its outcome is refused and its finish keeps the adopter's verdict.
        assertThrows(IllegalStateException.class,
                () -> deadJobs.recordOutcome(deadJob.id(), new IngestJob.Outcome("late", "stored", 1, 1, 201, null)));
        assertEquals(JobStatus.PARTIALLY_FAILED, deadJobs.finish(deadJob.id()).status());
        assertThrows(IllegalStateException.class, () -> deadRegistry.activateVersion(namespace, "dead-doc", deadVersion, "h", 1, "t",
                new DocumentDescription("b.md", "text/markdown", Map.of(), 5)));

        assertTrue(IngestRecovery.adoptOrphans(tenants, deadRegistry, deadJobs, leases, SURVIVOR, now, t -> store).idle(),
                "nothing is adopted twice");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void exactlyOneServerAdoptsAnOrphanAndARestartEndsItsPredecessor(String database) throws Exception {
        ServerLeases leases = openWithTenantAcme(database);
        Clock clock = Clock.systemUTC();
        long now = System.currentTimeMillis();
        leases.register(DEAD, "node2", now, TTL);
        IngestJob job = jobsOf(DEAD, clock).create(Namespace.of("acme"), 1);
        assertTrue(leases.orphanedJobs(JobKind.INGEST, now).isEmpty(), "a live owner's job is not an orphan");
        assertFalse(leases.adoptJob(job.id(), SURVIVOR, now), "a live owner's job cannot be adopted");

        // node2 restarts: the new process ends its predecessor's lease at once, without waiting for the ttl.
        String restarted = "node2@dddd";
        leases.register(restarted, "node2", now, TTL);
        assertEquals(1, leases.expirePredecessors("node2", restarted));
        assertEquals(List.of(restarted), leases.live(now).stream().map(ServerLeases.Lease::serverId).toList());

        assertTrue(leases.adoptJob(job.id(), restarted, now), "the first adopter wins");
        assertFalse(leases.adoptJob(job.id(), SURVIVOR, now), "the second finds it owned by a live server");
        assertTrue(leases.renew(restarted, now + 1000, TTL));
        leases.release(restarted);
        assertFalse(leases.renew(restarted, now + 2000, TTL), "a released lease is gone");
        assertEquals(List.of(job.id()), leases.orphanedJobs(JobKind.INGEST, now).stream().map(ServerLeases.OrphanedJob::jobId).toList(),
                "a cleanly stopped server's job is adoptable at once");
        assertEquals(1, leases.purgeExpired(now + 1), "the predecessor's ended lease is purged");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aDeadServersRelocationIsAnOrphanOfItsKindKeepsBothStoresAndHoldsTheTenantsWrites(String database) throws Exception {
        open(database);
        Clock clock = Clock.systemUTC();
        TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        ServerLeases leases = jpa.leases();
        long now = System.currentTimeMillis();
        leases.register(DEAD, "node2", now - 2 * TTL, TTL);
        leases.register(SURVIVOR, "node3", now, TTL);
        IngestJob.Relocate stores = new IngestJob.Relocate(new PluginChoice("lucene", Map.of()),
                new PluginChoice("pgvector", Map.of("jdbcUrl", "jdbc:postgresql://db2/corpora", "table", "chunks_acme")));
        IngestJob relocation = jobsOf(DEAD, clock).createRelocation("acme", 3, stores);

        assertEquals(List.of(relocation.id()), leases.orphanedJobs(JobKind.RELOCATE, now).stream().map(ServerLeases.OrphanedJob::jobId).toList());
        assertTrue(leases.orphanedJobs(JobKind.REEMBED, now).isEmpty(), "a re-embed sweep leaves relocations alone");
        assertTrue(leases.orphanedJobs(JobKind.INGEST, now).isEmpty());
        assertTrue(leases.adoptJob(relocation.id(), SURVIVOR, now));
        JobRepository survivorJobs = jobsOf(SURVIVOR, clock);
        IngestJob adopted = survivorJobs.find("acme", relocation.id()).orElseThrow();
        assertEquals(JobKind.RELOCATE, adopted.kind());
        assertEquals(stores, adopted.relocate(), "both store choices survive the round trip, for a resume or a late source delete");
        assertEquals(relocation.id(), survivorJobs.unfinishedMigration("acme").orElseThrow().id());

        Namespace namespace = Namespace.of("acme");
        DocumentRegistry registry = registryOf(SURVIVOR, clock);
        int version = registry.beginVersion(namespace, "doc", "d.md", "text/markdown", Map.of(), 5);
        WriteRefusedException refused = assertThrows(WriteRefusedException.class, () -> registry.activateVersion(namespace, "doc", version,
                "h", 1, "t", new DocumentDescription("d.md", "text/markdown", Map.of(), 5), "onnx:some-model"));
        assertEquals(WriteRefusedException.Reason.MIGRATION_IN_PROGRESS, refused.reason());
        assertTrue(refused.getMessage().contains("relocated"), refused.getMessage());
        survivorJobs.fail(relocation.id(), "rolled back (test)");
        registry.activateVersion(namespace, "doc", version, "h", 1, "t", new DocumentDescription("d.md", "text/markdown", Map.of(), 5),
                "onnx:some-model");
    }

    /**
     * Every server sweeps every few seconds: among thousands of stored documents it finds the dead server's pending
     * version, not the live one's, through the writer index instead of reading every document of every tenant.
     */
    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void theSweepFindsADeadServersPendingVersionThroughTheWriterIndex(String database) throws Exception {
        ServerLeases leases = openWithTenantAcme(database);
        Clock clock = Clock.systemUTC();
        long now = System.currentTimeMillis();
        leases.register(LIVE, "node1", now, TTL);
        leases.register(DEAD, "node2", now - 2 * TTL, TTL);
        var em = jpa.entityManager();
        ControlPlaneJpa.inTx(em, () -> {
            StoredDocumentRows.insert(em.unwrap(java.sql.Connection.class), 0, 5_000, id -> "acme", null);
            return null;
        });
        Namespace namespace = Namespace.of("acme");
        registryOf(LIVE, clock).beginVersion(namespace, "live-doc", "a.md", "text/markdown", Map.of(), 5);
        registryOf(DEAD, clock).beginVersion(namespace, "dead-doc", "b.md", "text/markdown", Map.of(), 5);
        execute("h2".equals(database) ? "ANALYZE" : "ANALYZE documents");

        assertEquals(List.of("dead-doc"), leases.orphanedWrites(now).stream().map(ServerLeases.PendingWrite::documentId).toList());
        List<?> planRows = ControlPlaneJpa.inTx(em, () -> em.createNativeQuery("EXPLAIN ANALYZE " + JpaServerLeases.ORPHANED_WRITES)
                .setParameter(1, now).getResultList());
        String plan = planRows.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining("\n"));
        assertTrue(plan.contains("ix_documents_writer"), "the sweep reads the writer index, not every document:\n" + plan);
        if ("h2".equals(database)) { // H2 counts the rows it read; an open range over an index that sorts NULLs last reads them all
            java.util.regex.Matcher read = java.util.regex.Pattern.compile("\"documents\" \"d\"\\s*/\\*[^*]*\\*/\\s*/\\* scanCount: (\\d+)").matcher(plan);
            assertTrue(read.find(), plan);
            assertTrue(Integer.parseInt(read.group(1)) <= 3, "the sweep read " + read.group(1) + " documents for 2 pending versions:\n" + plan);
        }
    }

    /** A version left pending before server leases has no writer: V13 names it, so the sweep still finds it and adopts it. */
    @org.junit.jupiter.api.Test
    void aVersionLeftPendingWithoutAWriterIsNamedByTheMigrationAndAdopted() throws Exception {
        open("h2");
        Clock clock = Clock.systemUTC();
        TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        Namespace namespace = Namespace.of("acme");
        DocumentRegistry beforeLeases = jpa.transactional(DocumentRegistry.class, jpa.documents(clock)); // no server identity
        int version = beforeLeases.beginVersion(namespace, "old-doc", "a.md", "text/markdown", Map.of(), 5);
        execute("UPDATE documents SET writer = NULL WHERE document_id = 'old-doc'"); // as a version begun before V7 is
        ServerLeases leases = jpa.leases();
        long now = System.currentTimeMillis();
        leases.register(SURVIVOR, "node3", now, TTL);
        assertTrue(leases.orphanedWrites(now).isEmpty(), "no writer: invisible to the sweep until the migration names it");

        MigrationStatements.of("V13__pending_writes_by_writer.sql").forEach(this::execute);

        assertEquals(List.of("old-doc"), leases.orphanedWrites(now).stream().map(ServerLeases.PendingWrite::documentId).toList());
        ReferenceVectorStore store = new ReferenceVectorStore(VectorSimilarity.COSINE, 2);
        write(store, namespace, "old-doc", version);
        IngestRecovery.Report report = IngestRecovery.adoptOrphans(tenants, beforeLeases, jpa.transactional(JobRepository.class, jpa.jobs(clock)),
                leases, SURVIVOR, now, t -> store);
        assertEquals(1, report.versionsFailed(), report.toString());
        DocumentRecord failed = beforeLeases.find(namespace, "old-doc").orElseThrow();
        assertEquals(DocumentStatus.FAILED, failed.status());
        assertTrue(failed.error().contains("a server restart"), "no server to name: " + failed.error());
        assertTrue(store.documentChunks(namespace, "old-doc").isEmpty());
    }

    private void execute(String sql) {
        var em = jpa.entityManager();
        ControlPlaneJpa.inTx(em, () -> em.createNativeQuery(sql).executeUpdate());
    }

    private void open(String database) throws Exception {
        jpa = controlPlanes.open(database);
    }

    /** The database opened with tenant acme; its server leases. */
    private ServerLeases openWithTenantAcme(String database) throws Exception {
        open(database);
        jpa.transactional(TenantRepository.class, jpa.tenants(Clock.systemUTC())).create(ControlPlaneRepositoriesTest.tenant("acme"));
        return jpa.leases();
    }

    private JobRepository jobsOf(String server, Clock clock) {
        return jpa.transactional(JobRepository.class, new JpaJobRepository(jpa.entityManager(), clock, server));
    }

    private DocumentRegistry registryOf(String server, Clock clock) {
        return jpa.transactional(DocumentRegistry.class, new JpaDocumentRegistry(jpa.entityManager(), clock, server));
    }

    private static void write(ReferenceVectorStore store, Namespace namespace, String documentId, int version) {
        Chunk chunk = ReservedKeyStamper.stamp(new Chunk(documentId + ":0", documentId, 0, "text of " + documentId, List.of(), Map.of()),
                namespace, documentId, version);
        store.upsert(namespace, List.of(new EmbeddedChunk(chunk, new float[] {1, 0})));
    }
}
