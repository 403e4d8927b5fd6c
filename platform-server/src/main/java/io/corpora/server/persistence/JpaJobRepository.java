package io.corpora.server.persistence;

import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.JobStatus;
import io.corpora.ingest.IngestException;
import io.corpora.ingest.TenantWriteGate;
import io.corpora.spi.Namespace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import java.time.Clock;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Optional;
import java.util.UUID;

/** Ingest and re-embed jobs on JPA. Outcomes are appended under a lock on the job row, so concurrent workers keep counters exact. */
@ApplicationScoped
@ControlPlaneTransactional
public class JpaJobRepository implements JobRepository {

    /** The statuses of a job not yet finished, as the jobs table spells them. */
    static final List<String> UNFINISHED = List.of(JobStatus.QUEUED.name(), JobStatus.RUNNING.name());
    /** The kinds of job that migrate a tenant's whole corpus, as the jobs table spells them. */
    static final List<String> MIGRATION_KINDS = java.util.Arrays.stream(JobKind.values()).filter(JobKind::migratesCorpus).map(JobKind::name).toList();

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    Clock clock = Clock.systemUTC();

    /** Stamped on every job this server creates: its lease owns the job (null outside the container: no owner). */
    @jakarta.inject.Inject
    io.corpora.server.cluster.ServerIdentity identity;

    private String owner;

    public JpaJobRepository() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaJobRepository(EntityManager em, Clock clock) {
        this(em, clock, null);
    }

    /** Outside the container, as server {@code owner} (tests of lease adoption). */
    JpaJobRepository(EntityManager em, Clock clock, String owner) {
        this.em = em;
        this.clock = clock;
        this.owner = owner;
    }

    private String owner() {
        return identity != null ? identity.id() : owner;
    }

    @Override
    public IngestJob create(Namespace namespace, int total) {
        IngestJobEntity row = newRow(namespace.tenant(), total, JobKind.INGEST);
        row.partitionId = namespace.partitionKey();
        return persist(row);
    }

    @Override
    public IngestJob createRebuild(Namespace namespace, int total) {
        // The tenant row's lock orders rebuild starts on every server, as it orders migration starts and activations; a
        // rebuild during a migration would only have each activation refused, so it is refused at the start.
        lockTenantWithoutOpenMigration(namespace.tenant());
        List<String> open = em.createQuery("SELECT j.id FROM IngestJobEntity j WHERE j.tenantId = :t AND j.partitionId = :p"
                        + " AND j.kind = :k AND j.status IN :s", String.class)
                .setParameter("t", namespace.tenant())
                .setParameter("p", namespace.partitionKey())
                .setParameter("k", JobKind.REBUILD.name())
                .setParameter("s", UNFINISHED)
                .getResultList();
        if (!open.isEmpty()) {
            throw new IngestException(409, "rebuild-in-progress", "namespace '" + namespace + "' is already being rebuilt by job "
                    + open.get(0) + "; follow it at GET jobs/" + open.get(0));
        }
        IngestJobEntity row = newRow(namespace.tenant(), total, JobKind.REBUILD);
        row.partitionId = namespace.partitionKey();
        return persist(row);
    }

    @Override
    public IngestJob createReembed(String tenant, int total, IngestJob.Reembed target) {
        // Orders the start against document activations on every server (JpaDocumentRegistry#requireWritable).
        lockTenantWithoutOpenMigration(tenant);
        IngestJobEntity row = newRow(tenant, total, JobKind.REEMBED);
        row.targetEmbedderProvider = target.targetEmbedder().provider();
        row.targetEmbedderConfig = JsonText.write(target.targetEmbedder().config());
        row.fromEmbedder = target.fromEmbedder();
        row.toEmbedder = target.toEmbedder();
        return persist(row);
    }

    @Override
    public IngestJob createRelocation(String tenant, int total, IngestJob.Relocate relocate) {
        // The same ordering against document activations as a re-embed start (JpaDocumentRegistry#requireWritable).
        lockTenantWithoutOpenMigration(tenant);
        IngestJobEntity row = newRow(tenant, total, JobKind.RELOCATE);
        row.fromStoreProvider = relocate.fromStore().provider();
        row.fromStoreConfig = JsonText.write(relocate.fromStore().config());
        row.targetStoreProvider = relocate.targetStore().provider();
        row.targetStoreConfig = JsonText.write(relocate.targetStore().config());
        return persist(row);
    }

    /**
     * Locks the tenant's row and refuses when a re-embed or relocation of it is still open: the caller's own check ran
     * in an earlier transaction, so two servers starting at once would otherwise both pass it. Every start takes this
     * lock first, so the second one sees the first one's job.
     */
    private void lockTenantWithoutOpenMigration(String tenant) {
        em.find(TenantEntity.class, tenant, LockModeType.PESSIMISTIC_WRITE);
        List<String> open = em.createQuery("SELECT j.id FROM IngestJobEntity j WHERE j.tenantId = :t AND j.kind IN :k AND j.status IN :s",
                        String.class)
                .setParameter("t", tenant)
                .setParameter("k", MIGRATION_KINDS)
                .setParameter("s", UNFINISHED)
                .getResultList();
        if (!open.isEmpty()) {
            throw new IngestException(409, "migration-in-progress", "tenant '" + tenant + "' is already being migrated by job "
                    + open.get(0)).retryAfter(TenantWriteGate.RETRY_AFTER_SECONDS);
        }
    }

    private IngestJobEntity newRow(String tenant, int total, JobKind kind) {
        if (total < 0) {
            throw new IllegalArgumentException("a job's document total must be >= 0, got " + total);
        }
        IngestJobEntity row = new IngestJobEntity();
        row.id = UUID.randomUUID().toString();
        row.tenantId = tenant;
        row.kind = kind.name();
        row.owner = owner();
        row.status = JobStatus.QUEUED.name();
        row.total = total;
        row.createdAt = Timestamps.now(clock);
        row.updatedAt = row.createdAt;
        return row;
    }

    private IngestJob persist(IngestJobEntity row) {
        em.persist(row);
        em.flush();
        return toJob(row, List.of());
    }

    /** Only the tenant's own jobs: a job id of another tenant is "not found". */
    @Override
    public Optional<IngestJob> find(String tenant, String jobId) {
        IngestJobEntity row = em.find(IngestJobEntity.class, jobId);
        if (row == null || !row.tenantId.equals(tenant)) {
            return Optional.empty();
        }
        return Optional.of(toJob(row, outcomes(row.id)));
    }

    @Override
    public List<IngestJob> list(String tenant, int limit) {
        return em.createQuery("SELECT j FROM IngestJobEntity j WHERE j.tenantId = :t ORDER BY j.createdAt DESC, j.id", IngestJobEntity.class)
                .setParameter("t", tenant).setMaxResults(Math.max(1, limit)).getResultList()
                .stream().map(row -> toJob(row, outcomes(row.id))).toList();
    }

    @Override
    public void markRunning(String jobId) {
        IngestJobEntity row = lock(jobId);
        row.status = JobStatus.RUNNING.name();
        row.updatedAt = Timestamps.now(clock);
    }

    @Override
    public void recordOutcome(String jobId, IngestJob.Outcome outcome) {
        recordOutcomes(jobId, List.of(outcome));
    }

    @Override
    public void recordOutcomes(String jobId, List<IngestJob.Outcome> outcomes) {
        IngestJobEntity row = lock(jobId);
        for (IngestJob.Outcome outcome : outcomes) {
            append(row, outcome);
        }
        row.updatedAt = Timestamps.now(clock);
    }

    private void append(IngestJobEntity row, IngestJob.Outcome outcome) {
        String jobId = row.id;
        if (finished(row)) {
            // Fencing: a server that lost its lease (paused past its expiry) finds its job closed by the adopter.
            throw new IllegalStateException("ingest job '" + jobId + "' is already " + row.status + " (closed by server " + row.owner
                    + "); this outcome of '" + outcome.documentId() + "' is not recorded");
        }
        switch (outcome.result()) {
            case "stored" -> row.succeeded++;
            case "skipped" -> row.skipped++;
            case "failed" -> row.failed++;
            default -> throw new IllegalArgumentException("outcome result must be stored, skipped or failed, got '" + outcome.result() + "'");
        }
        IngestJobOutcomeEntity entry = new IngestJobOutcomeEntity();
        entry.jobId = jobId;
        entry.position = row.succeeded + row.skipped + row.failed - 1;
        entry.documentId = outcome.documentId();
        entry.result = outcome.result();
        entry.version = outcome.version();
        entry.chunks = outcome.chunks();
        entry.httpStatus = outcome.status();
        entry.error = outcome.error();
        entry.problemType = outcome.problem();
        em.persist(entry);
    }

    /** Documents never reported (e.g. a crash) count as failed: SUCCEEDED only when every document succeeded or was skipped. */
    @Override
    public IngestJob finish(String jobId) {
        IngestJobEntity row = lock(jobId);
        if (finished(row)) {
            return toJob(row, outcomes(jobId)); // closed already (e.g. adopted after its owner's lease expired): keep that verdict
        }
        int done = row.succeeded + row.skipped;
        boolean complete = row.failed == 0 && done >= row.total;
        JobStatus status = complete ? JobStatus.SUCCEEDED : done == 0 ? JobStatus.FAILED : JobStatus.PARTIALLY_FAILED;
        row.status = status.name();
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        return toJob(row, outcomes(jobId));
    }

    @Override
    public IngestJob fail(String jobId, String error) {
        IngestJobEntity row = lock(jobId);
        row.status = JobStatus.FAILED.name();
        row.error = error;
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        return toJob(row, outcomes(jobId));
    }

    @Override
    public IngestJob restart(String jobId, int total) {
        if (total < 0) {
            throw new IllegalArgumentException("a job's document total must be >= 0, got " + total);
        }
        IngestJobEntity row = lock(jobId);
        em.createQuery("DELETE FROM IngestJobOutcomeEntity o WHERE o.jobId = :j").setParameter("j", jobId).executeUpdate();
        row.total = total;
        row.succeeded = 0;
        row.skipped = 0;
        row.failed = 0;
        row.status = JobStatus.RUNNING.name();
        row.updatedAt = Timestamps.now(clock);
        em.flush();
        return toJob(row, List.of());
    }

    @Override
    public List<IngestJob> unfinished() {
        return em.createQuery("SELECT j FROM IngestJobEntity j WHERE j.status IN :s ORDER BY j.createdAt", IngestJobEntity.class)
                .setParameter("s", UNFINISHED).getResultList()
                .stream().map(row -> toJob(row, outcomes(row.id))).toList();
    }

    private static boolean finished(IngestJobEntity row) {
        return !JobStatus.QUEUED.name().equals(row.status) && !JobStatus.RUNNING.name().equals(row.status);
    }

    private IngestJobEntity lock(String jobId) {
        IngestJobEntity row = em.find(IngestJobEntity.class, jobId, LockModeType.PESSIMISTIC_WRITE);
        if (row == null) {
            throw new NoSuchElementException("ingest job '" + jobId + "' does not exist");
        }
        return row;
    }

    private List<IngestJob.Outcome> outcomes(String jobId) {
        return em.createQuery("SELECT o FROM IngestJobOutcomeEntity o WHERE o.jobId = :j ORDER BY o.position", IngestJobOutcomeEntity.class)
                .setParameter("j", jobId).getResultList().stream()
                .map(o -> new IngestJob.Outcome(o.documentId, o.result, o.version, o.chunks, o.httpStatus, o.error, o.problemType)).toList();
    }

    private static IngestJob toJob(IngestJobEntity row, List<IngestJob.Outcome> outcomes) {
        JobKind kind = JobKind.valueOf(row.kind);
        IngestJob.Reembed reembed = kind != JobKind.REEMBED ? null : new IngestJob.Reembed(
                new PluginChoice(row.targetEmbedderProvider, JsonText.stringMap(row.targetEmbedderConfig)), row.fromEmbedder, row.toEmbedder);
        IngestJob.Relocate relocate = kind != JobKind.RELOCATE ? null : new IngestJob.Relocate(
                new PluginChoice(row.fromStoreProvider, JsonText.stringMap(row.fromStoreConfig)),
                new PluginChoice(row.targetStoreProvider, JsonText.stringMap(row.targetStoreConfig)));
        return new IngestJob(row.id, row.tenantId, row.partitionId, kind, JobStatus.valueOf(row.status), row.total, row.succeeded, row.skipped, row.failed,
                outcomes, reembed, relocate, row.error, Timestamps.instant(row.createdAt), Timestamps.instant(row.updatedAt));
    }
}
