package io.corpora.server.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.Id;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** A row of {@code evaluations}: one retrieval-quality evaluation of a tenant (see {@link JpaEvaluations}). */
@Entity
@Table(name = "evaluations")
public class EvaluationEntity {
    @Id
    @Column(name = "id")
    String id;
    @Column(name = "tenant_id", nullable = false, updatable = false)
    String tenantId;
    @Column(name = "status", nullable = false)
    String status;
    @Column(name = "created_at", nullable = false, updatable = false)
    OffsetDateTime createdAt;
    @Column(name = "finished_at")
    OffsetDateTime finishedAt;
    @Column(name = "created_by", nullable = false, updatable = false)
    String createdBy;
    @Column(name = "actor_subject", nullable = false, updatable = false)
    String actorSubject;
    @Column(name = "actor_groups", nullable = false, updatable = false)
    String actorGroups;
    @Column(name = "actor_partition", updatable = false)
    String actorPartition;
    @Column(name = "query_count", nullable = false, updatable = false)
    int queryCount;
    @Column(name = "judgement_count", nullable = false, updatable = false)
    int judgementCount;
    @Column(name = "recall_at", nullable = false, updatable = false)
    int recallAt;
    @Column(name = "candidates", nullable = false, updatable = false)
    String candidates;
    @Column(name = "done", nullable = false)
    int done;
    @Column(name = "total", nullable = false)
    int total;
    @Column(name = "results")
    String results;
    @Column(name = "recommended")
    Integer recommended;
    @Column(name = "error")
    String error;
    @Column(name = "applied_at")
    OffsetDateTime appliedAt;
    @Column(name = "applied_by")
    String appliedBy;
    /** The server whose lease owns the run; changed only by adoption (a native compare-and-set in {@link JpaEvaluations}). */
    @Column(name = "owner", updatable = false)
    String owner;
    @Column(name = "judged_set_fingerprint", updatable = false)
    String judgedSetFingerprint;
    @Column(name = "max_drop", updatable = false)
    Double maxDrop;
}
