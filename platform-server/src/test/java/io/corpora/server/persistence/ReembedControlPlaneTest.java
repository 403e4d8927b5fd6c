package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentDescription;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantRepository;
import io.corpora.controlplane.WriteRefusedException;
import io.corpora.ingest.IngestException;
import io.corpora.spi.Namespace;
import jakarta.persistence.EntityManager;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * What a migration (re-embed, store relocation) persists and how it switches, on both databases (migrations V1 + V2, EclipseLink): the job's
 * target survives a reload, a restart clears its outcomes, and the switch changes embedder and fingerprint together or
 * not at all.
 */
class ReembedControlPlaneTest {

    private static final PluginChoice TARGET = new PluginChoice("onnx", Map.of("model", "custom", "apiKey", "${config:acme.key}"));

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    private ControlPlaneJpa jpa;
    private TenantRepository tenants;
    private JobRepository jobs;

    private void open(String database) throws Exception {
        jpa = controlPlanes.open(database);
        tenants = jpa.transactional(TenantRepository.class, jpa.tenants(Clock.systemUTC()));
        jobs = jpa.transactional(JobRepository.class, jpa.jobs(Clock.systemUTC()));
        tenants.create(ControlPlaneRepositoriesTest.tenant("acme"));
        tenants.setActiveEmbedder("acme", "old.384.aaaa");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aMigrationJobKeepsItsTargetAndARestartStartsItsOutcomesOver(String database) throws Exception {
        open(database);
        IngestJob ingest = jobs.create(Namespace.of("acme"), 1);
        IngestJob created = jobs.createReembed("acme", 2, new IngestJob.Reembed(TARGET, "old.384.aaaa", "new.384.bbbb"));
        jobs.markRunning(created.id());
        jobs.recordOutcome(created.id(), new IngestJob.Outcome("d1", "stored", 1, 3, 200, null));

        IngestJob reloaded = jobs.find("acme", created.id()).orElseThrow();
        assertEquals(JobKind.REEMBED, reloaded.kind());
        assertEquals(new IngestJob.Reembed(TARGET, "old.384.aaaa", "new.384.bbbb"), reloaded.reembed(), "the target survives a restart");
        assertEquals(JobKind.INGEST, jobs.find("acme", ingest.id()).orElseThrow().kind());
        assertNull(jobs.find("acme", ingest.id()).orElseThrow().reembed());
        assertEquals(created.id(), jobs.unfinishedReembed("acme").orElseThrow().id(), "the ingest job is not a migration");

        IngestJob restarted = jobs.restart(created.id(), 3);
        assertEquals(JobStatus.RUNNING, restarted.status());
        assertEquals(0, jobs.find("acme", created.id()).orElseThrow().outcomes().size());
        jobs.recordOutcome(created.id(), new IngestJob.Outcome("d1", "skipped", 1, 3, 200, null));
        assertEquals(1, jobs.find("acme", created.id()).orElseThrow().skipped(), "positions start over without colliding");

        IngestJob failed = jobs.fail(created.id(), "rolled back: model refused the input");
        assertEquals(JobStatus.FAILED, failed.status());
        assertEquals("rolled back: model refused the input", jobs.find("acme", created.id()).orElseThrow().error());
        assertTrue(jobs.unfinishedReembed("acme").isEmpty());
    }

    /**
     * The create itself refuses a second migration under the tenant's row lock: the caller's check of open jobs runs in
     * an earlier transaction, so two servers starting at once could both pass it. Calling create directly is that race.
     */
    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aSecondMigrationOfATenantIsRefusedByTheCreateWhileOneIsOpen(String database) throws Exception {
        open(database);
        IngestJob.Relocate relocate = new IngestJob.Relocate(new PluginChoice("lucene", Map.of()), new PluginChoice("pgvector", Map.of("table", "t")));
        IngestJob.Reembed reembed = new IngestJob.Reembed(TARGET, "old.384.aaaa", "new.384.bbbb");
        IngestJob first = jobs.createRelocation("acme", 2, relocate);

        IngestException relocation = assertThrows(IngestException.class, () -> jobs.createRelocation("acme", 2, relocate));
        assertEquals(409, relocation.status());
        assertEquals("migration-in-progress", relocation.type());
        assertTrue(relocation.getMessage().contains(first.id()), relocation.getMessage());
        assertEquals("migration-in-progress", assertThrows(IngestException.class, () -> jobs.createReembed("acme", 2, reembed)).type(),
                "a re-embed is refused while a relocation is open, and the other way round");
        jobs.markRunning(first.id());
        assertThrows(IngestException.class, () -> jobs.createRelocation("acme", 2, relocate), "RUNNING is open too");
        assertEquals(1, jobs.list("acme", 10).size(), "the refused creates wrote nothing");

        tenants.create(ControlPlaneRepositoriesTest.tenant("other"));
        jobs.createReembed("other", 1, reembed); // another tenant's migration is independent
        jobs.fail(first.id(), "rolled back: test");
        IngestJob second = jobs.createReembed("acme", 2, reembed);
        assertEquals(JobKind.REEMBED, second.kind(), "once the first ended, the next migration starts");
        assertEquals("migration-in-progress", assertThrows(IngestException.class, () -> jobs.createRelocation("acme", 2, relocate)).type());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void theSwitchChangesEmbedderAndFingerprintTogetherOrNotAtAll(String database) throws Exception {
        open(database);
        Tenant switched = tenants.switchEmbedder("acme", "old.384.aaaa", TARGET, "new.384.bbbb");
        assertEquals(TARGET, tenants.find("acme").orElseThrow().definition().embedder());
        assertEquals("new.384.bbbb", tenants.find("acme").orElseThrow().activeEmbedder());
        assertEquals(switched.definition().quotas(), ControlPlaneRepositoriesTest.tenant("acme").quotas(), "nothing else changes");

        assertThrows(IllegalStateException.class, () -> tenants.switchEmbedder("acme", "old.384.aaaa", new PluginChoice("onnx", Map.of()),
                "third.384.cccc"), "a switch from a fingerprint the tenant no longer carries");
        assertEquals(TARGET, tenants.find("acme").orElseThrow().definition().embedder());
        assertEquals("new.384.bbbb", tenants.find("acme").orElseThrow().activeEmbedder());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void theSchemaRefusesAMigrationJobWithoutItsTarget(String database) throws Exception {
        open(database);
        EntityManager em = jpa.entityManager();
        em.getTransaction().begin();
        try {
            assertThrows(RuntimeException.class, () -> em.createNativeQuery("INSERT INTO ingest_jobs (id, tenant_id, kind, status, total,"
                    + " succeeded, skipped, failed, created_at, updated_at, row_version) VALUES ('j1', 'acme', 'REEMBED', 'QUEUED', 0, 0, 0, 0,"
                    + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)").executeUpdate());
        } finally {
            em.getTransaction().rollback();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void anActivationIsRefusedWhileAMigrationIsUnfinishedAndAfterTheEmbedderChanged(String database) throws Exception {
        open(database);
        DocumentRegistry documents = jpa.transactional(DocumentRegistry.class, jpa.documents(Clock.systemUTC()));
        Namespace namespace = Namespace.of("acme");
        DocumentDescription description = new DocumentDescription("doc.txt", "text/plain", Map.of(), 10);
        int v1 = documents.beginVersion(namespace, "doc", "doc.txt", "text/plain", Map.of(), 10);
        documents.activateVersion(namespace, "doc", v1, "h1", 1, "first", description, "old.384.aaaa");

        // Another server embedded version 2 with the old model; the migration started before it could activate it.
        int v2 = documents.beginVersion(namespace, "doc", "doc.txt", "text/plain", Map.of(), 10);
        IngestJob migration = jobs.createReembed("acme", 1, new IngestJob.Reembed(TARGET, "old.384.aaaa", "new.384.bbbb"));
        WriteRefusedException during = assertThrows(WriteRefusedException.class,
                () -> documents.activateVersion(namespace, "doc", v2, "h2", 1, "second", description, "old.384.aaaa"));
        assertEquals(WriteRefusedException.Reason.MIGRATION_IN_PROGRESS, during.reason());
        assertEquals(v1, documents.find(namespace, "doc").orElseThrow().activeVersion(), "the refusal changed nothing");

        tenants.switchEmbedder("acme", "old.384.aaaa", TARGET, "new.384.bbbb");
        jobs.finish(migration.id());
        WriteRefusedException after = assertThrows(WriteRefusedException.class,
                () -> documents.activateVersion(namespace, "doc", v2, "h2", 1, "second", description, "old.384.aaaa"));
        assertEquals(WriteRefusedException.Reason.EMBEDDER_CHANGED, after.reason(), "old-model vectors never activate after the switch");
        assertEquals(v2, documents.activateVersion(namespace, "doc", v2, "h2", 1, "second", description, "new.384.bbbb").activeVersion());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aVersionWrittenToTheStoreARelocationLeftIsRefusedAfterTheSwitch(String database) throws Exception {
        open(database);
        DocumentRegistry documents = jpa.transactional(DocumentRegistry.class, jpa.documents(Clock.systemUTC()));
        Namespace namespace = Namespace.of("acme");
        DocumentDescription description = new DocumentDescription("doc.txt", "text/plain", Map.of(), 10);
        PluginChoice source = tenants.find("acme").orElseThrow().definition().store();
        PluginChoice target = new PluginChoice("pgvector", Map.of("jdbcUrl", "jdbc:postgresql://db2.internal/corpora", "table", "chunks_acme"));

        // Another server began writing to the source before the relocation started and activates only after it ended.
        int late = documents.beginVersion(namespace, "doc", "doc.txt", "text/plain", Map.of(), 10);
        IngestJob relocation = jobs.createRelocation("acme", 0, new IngestJob.Relocate(source, target));
        tenants.switchStore("acme", source, target);
        jobs.finish(relocation.id());
        WriteRefusedException refused = assertThrows(WriteRefusedException.class,
                () -> documents.activateVersion(namespace, "doc", late, "h", 1, "late", description, "old.384.aaaa", source));
        assertEquals(WriteRefusedException.Reason.STORE_MOVED, refused.reason());
        assertTrue(refused.getMessage().contains("pgvector") && !refused.getMessage().contains("db2.internal"), refused.getMessage());
        assertEquals(0, documents.find(namespace, "doc").orElseThrow().activeVersion(), "the refusal changed nothing");

        int again = documents.beginVersion(namespace, "doc", "doc.txt", "text/plain", Map.of(), 10);
        assertEquals(again, documents.activateVersion(namespace, "doc", again, "h", 1, "sent again", description, "old.384.aaaa", target)
                .activeVersion(), "written to the tenant's store now, it activates");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aDeleteIsRefusedOnEveryServerWhileAMigrationIsUnfinishedAndTheStoreIsNotTouched(String database) throws Exception {
        DocumentRegistry documents = openWithActiveDocument(database, "doc");
        Namespace namespace = Namespace.of("acme");
        PluginChoice source = tenants.find("acme").orElseThrow().definition().store();
        IngestJob relocation = jobs.createRelocation("acme", 1, new IngestJob.Relocate(source, new PluginChoice("pgvector", Map.of("table", "t"))));
        AtomicInteger removals = new AtomicInteger();

        WriteRefusedException refused = assertThrows(WriteRefusedException.class,
                () -> documents.delete(namespace, "doc", removals::incrementAndGet));
        assertEquals(WriteRefusedException.Reason.MIGRATION_IN_PROGRESS, refused.reason());
        assertTrue(refused.getMessage().contains("relocated"), refused.getMessage());
        assertEquals(0, removals.get(), "the store is not touched");
        assertEquals(1, documents.find(namespace, "doc").orElseThrow().activeVersion(), "the copy still finds the document");

        jobs.fail(relocation.id(), "rolled back: test");
        assertTrue(documents.delete(namespace, "doc", removals::incrementAndGet));
        assertEquals(1, removals.get(), "once the migration ended, the delete removes the chunks, then the document");
        assertTrue(documents.find(namespace, "doc").isEmpty());
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aDeleteWhoseStoreFailsKeepsTheDocument(String database) throws Exception {
        DocumentRegistry documents = openWithActiveDocument(database, "doc");
        Namespace namespace = Namespace.of("acme");

        assertThrows(IllegalStateException.class, () -> documents.delete(namespace, "doc", () -> {
            throw new IllegalStateException("store down");
        }));
        assertEquals(1, documents.find(namespace, "doc").orElseThrow().activeVersion(), "still registered: a retried delete finds it");
        assertEquals(1, documents.stats("acme").documents(), "and still counted");
    }

    /**
     * A delete in flight on one server (its chunks being removed) holds back a migration's start on another until it has
     * committed, so the copy, which lists the registry after its start, never finds a document whose chunks are gone.
     */
    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aMigrationStartWaitsForADeleteInFlight(String database) throws Exception {
        DocumentRegistry documents = openWithActiveDocument(database, "doc");
        Namespace namespace = Namespace.of("acme");
        DocumentRegistry deletingServer = jpa.documentsOnOwnConnection(Clock.systemUTC());
        JobRepository migratingServer = jpa.jobsOnOwnConnection(Clock.systemUTC());
        CountDownLatch removing = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        List<String> order = new CopyOnWriteArrayList<>();
        ExecutorService servers = Executors.newFixedThreadPool(2);
        try {
            Future<Boolean> delete = servers.submit(() -> deletingServer.delete(namespace, "doc", () -> {
                removing.countDown();
                await(release);
                order.add("chunks removed");
            }));
            assertTrue(removing.await(10, TimeUnit.SECONDS), "the delete reached the store");
            Future<IngestJob> start = servers.submit(() -> {
                IngestJob job = migratingServer.createReembed("acme", 0, new IngestJob.Reembed(TARGET, "old.384.aaaa", "new.384.bbbb"));
                order.add("migration started");
                return job;
            });
            assertThrows(TimeoutException.class, () -> start.get(500, TimeUnit.MILLISECONDS), "the start waits for the delete");
            release.countDown();
            assertTrue(delete.get(10, TimeUnit.SECONDS));
            assertEquals(JobKind.REEMBED, start.get(10, TimeUnit.SECONDS).kind());
            assertEquals(List.of("chunks removed", "migration started"), order);
            assertTrue(documents.find(namespace, "doc").isEmpty(),
                    "the migration's copy finds no document");
        } finally {
            release.countDown();
            servers.shutdownNow();
        }
    }

    /** Opens the database with tenant acme holding {@code id} at version 1; the registry on the test's connection. */
    private DocumentRegistry openWithActiveDocument(String database, String id) throws Exception {
        open(database);
        DocumentRegistry documents = jpa.transactional(DocumentRegistry.class, jpa.documents(Clock.systemUTC()));
        DocumentDescription description = new DocumentDescription(id + ".txt", "text/plain", Map.of(), 10);
        int v1 = documents.beginVersion(Namespace.of("acme"), id, id + ".txt", "text/plain", Map.of(), 10);
        documents.activateVersion(Namespace.of("acme"), id, v1, "h1", 1, "first", description, "old.384.aaaa");
        return documents;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
