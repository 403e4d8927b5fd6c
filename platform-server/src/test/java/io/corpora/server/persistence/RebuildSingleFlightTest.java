package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.ServerLeases;
import io.corpora.controlplane.TenantRepository;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.IngestRecovery;
import io.corpora.spi.Namespace;
import io.corpora.testkit.ReferenceVectorStore;
import io.corpora.spi.VectorSimilarity;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * One rebuild per namespace at a time across every server sharing the control plane (H2, and PostgreSQL when
 * CORPORA_TEST_PG_URL is set): starts sent together on connections of their own, as from several servers, create one
 * job; a rebuild whose server died is closed by a live one, after which the namespace can be rebuilt again.
 */
class RebuildSingleFlightTest {

    private static final int SERVERS = 6;
    private static final Namespace NAMESPACE = Namespace.of("acme");
    private static final String DEAD = "node2@bbbb";
    private static final String SURVIVOR = "node3@cccc";
    private static final long TTL = 15_000;

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void startsSentTogetherFromSeveralServersCreateOneRebuildAndTheOthersNameIt(String database) throws Exception {
        ControlPlaneJpa jpa = openWithTenantAcme(database);
        Clock clock = Clock.systemUTC();
        List<JobRepository> servers = new ArrayList<>();
        for (int i = 0; i < SERVERS; i++) {
            servers.add(jpa.jobsOnOwnConnection(clock));
        }

        List<Object> answers = startTogether(servers);

        List<IngestJob> created = answers.stream().filter(IngestJob.class::isInstance).map(IngestJob.class::cast).toList();
        assertEquals(1, created.size(), "one rebuild of " + SERVERS + " starts: " + answers);
        assertEquals(JobKind.REBUILD, created.get(0).kind());
        for (Object answer : answers) {
            if (answer instanceof IngestException refused) {
                assertEquals(409, refused.status());
                assertEquals("rebuild-in-progress", refused.type());
                assertTrue(refused.getMessage().contains(created.get(0).id()), "names the job to follow: " + refused.getMessage());
            } else {
                assertTrue(answer instanceof IngestJob, "a refusal, not a failure: " + answer);
            }
        }

        JobRepository jobs = servers.get(0);
        IngestJob otherPartition = jobs.createRebuild(Namespace.of("acme", "legal"), 1);
        assertEquals("legal", otherPartition.partition(), "another partition is rebuilt beside it");
        jobs.create(NAMESPACE, 1); // and the namespace's ingests go on
        jobs.markRunning(created.get(0).id());
        assertEquals(409, ((IngestException) refusal(() -> servers.get(1).createRebuild(NAMESPACE, 3))).status(), "running, still one");
        jobs.finish(created.get(0).id());
        assertEquals(JobKind.REBUILD, servers.get(1).createRebuild(NAMESPACE, 3).kind(), "once it ended, the next one starts");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aRebuildWhoseServerDiedIsClosedByALiveOneAndTheNamespaceCanBeRebuiltAgain(String database) throws Exception {
        ControlPlaneJpa jpa = openWithTenantAcme(database);
        Clock clock = Clock.systemUTC();
        TenantRepository tenants = jpa.transactional(TenantRepository.class, jpa.tenants(clock));
        ServerLeases leases = jpa.leases();
        long now = System.currentTimeMillis();
        leases.register(DEAD, "node2", now - 2 * TTL, TTL); // last renewed two ttls ago: expired
        leases.register(SURVIVOR, "node3", now, TTL);
        JobRepository deadJobs = jpa.transactional(JobRepository.class, new JpaJobRepository(jpa.entityManager(), clock, DEAD));
        IngestJob orphan = deadJobs.createRebuild(NAMESPACE, 2);
        deadJobs.markRunning(orphan.id());
        deadJobs.recordOutcome(orphan.id(), new IngestJob.Outcome("a.md", "stored", 1, 1, 200, null));
        JobRepository survivorJobs = jpa.transactional(JobRepository.class, new JpaJobRepository(jpa.entityManager(), clock, SURVIVOR));
        assertEquals("rebuild-in-progress", ((IngestException) refusal(() -> survivorJobs.createRebuild(NAMESPACE, 2))).type(),
                "while its server's lease has not been found dead, the rebuild is in progress");

        IngestRecovery.Report report = IngestRecovery.adoptOrphans(tenants, jpa.transactional(
                        io.corpora.controlplane.DocumentRegistry.class, jpa.documents(clock)), survivorJobs, leases, SURVIVOR, now,
                t -> new ReferenceVectorStore(VectorSimilarity.COSINE, 2));

        assertEquals(1, report.jobsClosed(), report.toString());
        IngestJob closed = survivorJobs.find("acme", orphan.id()).orElseThrow();
        assertEquals(JobStatus.PARTIALLY_FAILED, closed.status(), closed.toString());
        IngestJob.Outcome interrupted = closed.outcomes().get(1);
        assertEquals("job-interrupted", interrupted.problem(), interrupted.toString());
        assertTrue(interrupted.error().contains(DEAD) && interrupted.error().contains("run index:rebuild again"), interrupted.error());
        assertEquals(JobKind.REBUILD, survivorJobs.createRebuild(NAMESPACE, 2).kind(), "the namespace can be rebuilt again");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void aRebuildIsRefusedOnEveryServerWhileItsTenantIsMigrated(String database) throws Exception {
        ControlPlaneJpa jpa = openWithTenantAcme(database);
        Clock clock = Clock.systemUTC();
        JobRepository migrating = jpa.jobsOnOwnConnection(clock);
        JobRepository other = jpa.jobsOnOwnConnection(clock);
        IngestJob migration = migrating.createReembed("acme", 1,
                new IngestJob.Reembed(new PluginChoice("onnx", Map.of()), "old.384.aaaa", "new.384.bbbb"));

        IngestException refused = (IngestException) refusal(() -> other.createRebuild(NAMESPACE, 3));

        assertEquals("migration-in-progress", refused.type(), refused.getMessage());
        assertTrue(refused.getMessage().contains(migration.id()), refused.getMessage());
        migrating.finish(migration.id());
        assertEquals(JobKind.REBUILD, other.createRebuild(NAMESPACE, 3).kind(), "after the migration a rebuild starts");
    }

    /** The control plane ({@code h2} or {@code postgresql}) with tenant acme. */
    private ControlPlaneJpa openWithTenantAcme(String database) throws Exception {
        ControlPlaneJpa jpa = controlPlanes.open(database);
        jpa.transactional(TenantRepository.class, jpa.tenants(Clock.systemUTC())).create(ControlPlaneRepositoriesTest.tenant("acme"));
        return jpa;
    }

    /** Each server's {@code createRebuild} of the namespace, started at one moment: the job or the exception, per server. */
    private static List<Object> startTogether(List<JobRepository> servers) throws Exception {
        ExecutorService threads = Executors.newFixedThreadPool(servers.size());
        CountDownLatch go = new CountDownLatch(1);
        try {
            List<Future<Object>> started = new ArrayList<>();
            for (JobRepository server : servers) {
                started.add(threads.submit(() -> {
                    go.await();
                    return refusal(() -> server.createRebuild(NAMESPACE, 3));
                }));
            }
            go.countDown();
            List<Object> answers = new ArrayList<>();
            for (Future<Object> answer : started) {
                answers.add(answer.get());
            }
            return answers;
        } finally {
            threads.shutdownNow();
        }
    }

    /** What {@code start} returned, or what it threw. */
    private static Object refusal(java.util.function.Supplier<IngestJob> start) {
        try {
            return start.get();
        } catch (RuntimeException e) {
            return e;
        }
    }
}
