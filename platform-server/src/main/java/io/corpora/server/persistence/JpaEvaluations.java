package io.corpora.server.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.LockModeType;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;

/**
 * A tenant's evaluation history on JPA. The candidates and results columns hold JSON the server wrote (any
 * Jackson-writable value); the REST layer owns their shape. Each call is its own transaction.
 */
@ApplicationScoped
public class JpaEvaluations {

    public enum Status { QUEUED, RUNNING, SUCCEEDED, FAILED }

    /** One stored evaluation; {@code resultsJson} is null until it succeeded. */
    public record Row(String id, String tenant, Status status, Instant created, Instant finished, String createdBy, String actorSubject,
                      List<String> actorGroups, String actorPartition, int queries, int judgements, int recallAt, String candidatesJson,
                      int done, int total, String resultsJson, Integer recommended, String error, Instant appliedAt, String appliedBy) {}

    /** What a new evaluation records before it runs. */
    public record NewEvaluation(String tenant, String createdBy, String actorSubject, Set<String> actorGroups, String actorPartition,
                                int queries, int judgements, int recallAt, Object candidates, int total) {}

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    Clock clock = Clock.systemUTC();

    public JpaEvaluations() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaEvaluations(EntityManager em, Clock clock) {
        this.em = em;
        this.clock = clock;
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
        em.persist(row);
        em.flush();
        return row(row);
    }

    @Transactional
    public void markRunning(String id) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id);
        row.status = Status.RUNNING.name();
    }

    @Transactional
    public void progress(String id, int done) {
        em.find(EvaluationEntity.class, id).done = done;
    }

    @Transactional
    public void succeed(String id, Object results, int recommended) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id);
        row.status = Status.SUCCEEDED.name();
        row.done = row.total;
        row.results = JsonText.write(results);
        row.recommended = recommended;
        row.finishedAt = Timestamps.now(clock);
    }

    @Transactional
    public void fail(String id, String error) {
        EvaluationEntity row = em.find(EvaluationEntity.class, id);
        row.status = Status.FAILED.name();
        row.error = error;
        row.finishedAt = Timestamps.now(clock);
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
                e.done, e.total, e.results, e.recommended, e.error, Timestamps.instant(e.appliedAt), e.appliedBy);
    }
}
