package io.corpora.server.persistence;

import jakarta.persistence.Column;
import jakarta.persistence.Entity;
import jakarta.persistence.GeneratedValue;
import jakarta.persistence.GenerationType;
import jakarta.persistence.Id;
import jakarta.persistence.SequenceGenerator;
import jakarta.persistence.Table;
import java.time.OffsetDateTime;

/** A row of the append-only {@code audit_log}: inserted by {@link JpaAuditLog}, never updated or deleted. */
@Entity
@Table(name = "audit_log")
public class AuditEntryEntity {
    @Id
    @SequenceGenerator(name = "audit_log_seq", sequenceName = "audit_log_seq", allocationSize = 1)
    @GeneratedValue(strategy = GenerationType.SEQUENCE, generator = "audit_log_seq")
    @Column(name = "id")
    Long id;
    @Column(name = "at", nullable = false, updatable = false)
    OffsetDateTime at;
    @Column(name = "actor", nullable = false, updatable = false)
    String actor;
    @Column(name = "tenant_id", updatable = false)
    String tenantId;
    @Column(name = "action", nullable = false, updatable = false)
    String action;
    @Column(name = "target", updatable = false)
    String target;
    @Column(name = "outcome", nullable = false, updatable = false)
    String outcome;
    @Column(name = "details", nullable = false, updatable = false)
    String details;
}
