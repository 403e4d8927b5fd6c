package io.corpora.server.persistence;

import io.corpora.retrieval.evaluation.RunComparison;
import io.corpora.server.cluster.ServerIdentity;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.Query;
import jakarta.persistence.PersistenceContext;
import jakarta.persistence.TypedQuery;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A tenant's evaluation history on JPA. The candidates and results columns hold JSON the server wrote (any
 * Jackson-writable value); the REST layer owns their shape. Each call is its own transaction.
 *
 * <p>An evaluation is owned by the lease of the server that runs it ({@code owner}, as ingest jobs are): one left
 * QUEUED or RUNNING by a server that stopped or died is failed with the reason by {@link #failOrphaned} on any live
 * server, so it never blocks the tenant's next evaluation. The judged set is not stored, so it cannot be resumed; a
 * late outcome of the dead server (one that was only paused) is ignored, the adopter's verdict stands.
 */
@ApplicationScoped
public class JpaEvaluations {

    public enum Status { QUEUED, RUNNING, SUCCEEDED, FAILED }

    /** One stored evaluation; {@code resultsJson} is null until it succeeded. */
    public record Row(String id, String tenant, Status status, Instant created, Instant finished, String createdBy, String actorSubject,
                      List<String> actorGroups, String actorPartition, int queries, int judgements, int recallAt, String candidatesJson,
                      int done, int total, String resultsJson, Integer recommended, String error, Instant appliedAt, String appliedBy,
                      String owner, String judgedSetFingerprint, double maxDrop) {}

    /** What a new evaluation records before it runs; {@code maxDrop} null: {@link RunComparison#DEFAULT_MAX_DROP}. */
    public record NewEvaluation(String tenant, String createdBy, String actorSubject, Set<String> actorGroups, String actorPartition,
                                int queries, int judgements, int recallAt, Object candidates, int total, String judgedSetFingerprint,
                                Double maxDrop) {}

    /** What {@link #failOrphaned} closed: the evaluation and the owner that had left it. */
    public record Orphan(String tenant, String id, String owner) {}

    /** The reason an orphaned evaluation fails with. */
    static final String STOPPED = "server %s stopped while the evaluation ran (its lease expired); start the evaluation again";

    /** How many of the newest runs on the same judged set are searched for the actor's previous one. */
    private static final int COMPARABLE_SCAN = 200;
    private static final String OPEN = "status IN ('QUEUED', 'RUNNING')";
    /** Owners that hold no live lease (never registered, expired or purged), as ingest jobs' owners are judged. */
    private static final String DEAD_OWNER = JpaServerLeases.DEAD.formatted("owner", "owner");

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    Clock clock = Clock.systemUTC();

    /** Stamped on every evaluation this server creates: its lease owns the run (null outside the container). */
    @Inject
    ServerIdentity identity;

    private String owner;

    public JpaEvaluations() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaEvaluations(EntityManager em, Clock clock) {
        this(em, clock, null);
    }

    /** Outside the container, as server {@code owner} (tests of lease adoption). */
    JpaEvaluations(EntityManager em, Clock clock, String owner) {
        this.em = em;
        this.clock = clock;
        this.owner = owner;
    }

    private String owner() {
        return identity != null ? identity.id() : owner;
    }

    @Transactional
    public Row create(NewEvaluation e) {
        EvaluationEntity row = new EvaluationEntity();
        row.id = "ev-" + UUID.randomUUID();
        row.tenantId = e.tenant();
        row.status = Status.QUEUED.name();
        row.createdAt = Timestamps.now(clock);
        row.createdBy = e.createdBy();
        row.actorSubject = e.actorSubject();
        row.actorGroups = JsonText.write(e.actorGroups().stream().sorted().toList());
        row.actorPartition = e.actorPartition();
        row.queryCount = e.queries();
        row.judgementCount = e.judgements();
        row.recallAt = e.recallAt();
        row.candidates = JsonText.write(e.candidates());
        row.total = e.total();
        row.owner = owner();
        row.judgedSetFingerprint = e.judgedSetFingerprint();
        row.maxDrop = e.maxDrop();
        em.persist(row);
        em.flush();
        return row(row);
    }

    /** False when the evaluation is no longer open (failed by the adopter of an expired lease): the run should stop. */
    @Transactional
    public boolean markRunning(String id) {
        // Locked like succeed/fail: an adopter failing the run at the same moment must not be overwritten by RUNNING.
        EvaluationEntity row = em.find(EvaluationEntity.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (!open(row)) {
            return false;
        }
        row.status = Status.RUNNING.name();
        return true;
    }

    @Transactional
    public void progress(String id, int done) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (open(row)) {
            row.done = done;
        }
    }

    /** Records the result; false (nothing written) when the evaluation was closed meanwhile (its owner's lease expired). */
    @Transactional
    public boolean succeed(String id, Object results, int recommended) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (!open(row)) {
            return false;
        }
        row.status = Status.SUCCEEDED.name();
        row.done = row.total;
        row.results = JsonText.write(results);
        row.recommended = recommended;
        row.finishedAt = Timestamps.now(clock);
        return true;
    }

    /** Fails an open evaluation with {@code error}; an already closed one keeps its verdict. */
    @Transactional
    public void fail(String id, String error) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (!open(row)) {
            return;
        }
        row.status = Status.FAILED.name();
        row.error = error;
        row.finishedAt = Timestamps.now(clock);
    }

    /**
     * Adopts (a compare-and-set on the owner: exactly one server wins each) and fails every QUEUED or RUNNING
     * evaluation whose owner holds no live lease at {@code nowMillis}, with the reason naming that owner. Safe on every
     * server at once; returns what this call closed.
     */
    @Transactional
    public List<Orphan> failOrphaned(String self, long nowMillis) {
        return failOrphaned(self, nowMillis, null);
    }

    /** As {@link #failOrphaned(String, long)}, for one tenant's evaluations only (null: every tenant's). */
    @Transactional
    public List<Orphan> failOrphaned(String self, long nowMillis, String tenant) {
        Query select = em.createNativeQuery("SELECT tenant_id, id, owner FROM evaluations WHERE " + OPEN + " AND " + DEAD_OWNER
                + (tenant == null ? "" : " AND tenant_id = ?") + " ORDER BY created_at, id").setParameter(1, nowMillis);
        if (tenant != null) {
            select.setParameter(2, tenant);
        }
        @SuppressWarnings("unchecked")
        List<Object[]> candidates = select.getResultList();
        List<Orphan> closed = new ArrayList<>();
        for (Object[] c : candidates) {
            Orphan orphan = new Orphan((String) c[0], (String) c[1], (String) c[2]);
            int adopted = em.createNativeQuery("UPDATE evaluations SET owner = ? WHERE id = ? AND " + OPEN + " AND " + DEAD_OWNER)
                    .setParameter(1, self).setParameter(2, orphan.id()).setParameter(3, nowMillis).executeUpdate();
            if (adopted != 1) {
                continue; // another server adopted it first, or it finished meanwhile
            }
            EvaluationEntity row = em.find(EvaluationEntity.class, orphan.id());
            em.refresh(row);
            row.status = Status.FAILED.name();
            row.error = STOPPED.formatted(orphan.owner() == null ? "(unknown, a run recorded before leases)" : orphan.owner());
            row.finishedAt = Timestamps.now(clock);
            closed.add(orphan);
        }
        em.flush();
        return closed;
    }

    /**
     * The newest SUCCEEDED evaluation of the tenant created before {@code current} on the same judged set (equal
     * fingerprint), Recall@k and actor (groups and partition): the run {@code current} is compared with.
     */
    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<Row> previousComparable(Row current) {
        if (current.judgedSetFingerprint() == null) {
            return Optional.empty();
        }
        // actor_groups is TEXT (a CLOB to H2, not comparable in SQL): matched here, among the newest runs on the same set
        String groups = JsonText.write(current.actorGroups());
        TypedQuery<EvaluationEntity> query = em.createQuery("SELECT e FROM EvaluationEntity e WHERE e.tenantId = :t"
                + " AND e.status = :s AND e.judgedSetFingerprint = :f AND e.recallAt = :k AND e.id <> :id AND e.createdAt <= :c"
                + (current.actorPartition() == null ? " AND e.actorPartition IS NULL" : " AND e.actorPartition = :p")
                + " ORDER BY e.createdAt DESC, e.id DESC", EvaluationEntity.class);
        if (current.actorPartition() != null) {
            query.setParameter("p", current.actorPartition());
        }
        return query.setParameter("t", current.tenant()).setParameter("s", Status.SUCCEEDED.name()).setParameter("f", current.judgedSetFingerprint())
                .setParameter("k", current.recallAt()).setParameter("id", current.id()).setParameter("c", Timestamps.of(current.created()))
                .setMaxResults(COMPARABLE_SCAN).getResultList().stream()
                .filter(e -> groups.equals(e.actorGroups))
                .findFirst().map(JpaEvaluations::row);
    }

    /** Marks a succeeded, not yet applied evaluation applied; empty when it is not (the caller answers 409). */
    @Transactional
    public Optional<Row> markApplied(String tenant, String id, String by) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id, LockModeType.PESSIMISTIC_WRITE);
        if (row == null || !row.tenantId.equals(tenant) || !Status.SUCCEEDED.name().equals(row.status) || row.appliedAt != null) {
            return Optional.empty();
        }
        row.appliedAt = Timestamps.now(clock);
        row.appliedBy = by;
        return Optional.of(row(row));
    }

    @Transactional(Transactional.TxType.SUPPORTS)
    public Optional<Row> find(String tenant, String id) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id);
        return row == null || !row.tenantId.equals(tenant) ? Optional.empty() : Optional.of(row(row));
    }

    /** Newest first, {@code offset} rows skipped. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<Row> list(String tenant, int offset, int limit) {
        return em.createQuery("SELECT e FROM EvaluationEntity e WHERE e.tenantId = :t ORDER BY e.createdAt DESC, e.id DESC", EvaluationEntity.class)
                .setParameter("t", tenant).setFirstResult(offset).setMaxResults(limit).getResultList().stream().map(JpaEvaluations::row).toList();
    }

    /** Ids of the tenant's QUEUED or RUNNING evaluations. */
    @Transactional(Transactional.TxType.SUPPORTS)
    public List<String> running(String tenant) {
        return em.createQuery("SELECT e.id FROM EvaluationEntity e WHERE e.tenantId = :t AND e.status IN (:q, :r)", String.class)
                .setParameter("t", tenant).setParameter("q", Status.QUEUED.name()).setParameter("r", Status.RUNNING.name()).getResultList();
    }

    private static Row row(EvaluationEntity e) {
        return new Row(e.id, e.tenantId, Status.valueOf(e.status), Timestamps.instant(e.createdAt), Timestamps.instant(e.finishedAt), e.createdBy,
                e.actorSubject, JsonText.stringList(e.actorGroups), e.actorPartition, e.queryCount, e.judgementCount, e.recallAt, e.candidates,
                e.done, e.total, e.results, e.recommended, e.error, Timestamps.instant(e.appliedAt), e.appliedBy, e.owner,
                e.judgedSetFingerprint, e.maxDrop == null ? RunComparison.DEFAULT_MAX_DROP : e.maxDrop);
    }

    private static boolean open(EvaluationEntity row) {
        return row != null && (Status.QUEUED.name().equals(row.status) || Status.RUNNING.name().equals(row.status));
    }
}
