-- Issue 16: a tenant's retrieval-quality evaluations (POST /api/v1/tenants/{tenant}/evaluations). A row is the run's
-- history entry: who ran it as which actor, the judged set's size, the candidate configurations, each candidate's
-- metrics with per-query scores and configuration fingerprint (results, JSON), and the recommendation. applied_* is
-- set by the explicit :apply call only; nothing else changes the tenant's configuration.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

CREATE TABLE evaluations (
    id               VARCHAR(64)   NOT NULL,
    tenant_id        VARCHAR(64)   NOT NULL,
    status           VARCHAR(24)   NOT NULL,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    finished_at      TIMESTAMP WITH TIME ZONE,
    created_by       VARCHAR(256)  NOT NULL,
    actor_subject    VARCHAR(256)  NOT NULL,
    actor_groups     TEXT          NOT NULL,
    actor_partition  VARCHAR(64),
    query_count      INTEGER       NOT NULL,
    judgement_count  INTEGER       NOT NULL,
    recall_at        INTEGER       NOT NULL,
    candidates       TEXT          NOT NULL,
    done             INTEGER       NOT NULL,
    total            INTEGER       NOT NULL,
    results          TEXT,
    recommended      INTEGER,
    error            TEXT,
    applied_at       TIMESTAMP WITH TIME ZONE,
    applied_by       VARCHAR(256),
    CONSTRAINT pk_evaluations PRIMARY KEY (id),
    CONSTRAINT fk_evaluations_tenant FOREIGN KEY (tenant_id) REFERENCES tenants (id),
    CONSTRAINT ck_evaluations_status CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED'))
);
CREATE INDEX ix_evaluations_tenant_created ON evaluations (tenant_id, created_at);
