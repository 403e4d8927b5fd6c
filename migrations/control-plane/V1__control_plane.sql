-- Corpora control plane: tenants, document registry, ingest jobs and the append-only audit log.
-- Portable SQL: runs unchanged on PostgreSQL 15 and on H2 2.3 (the embedded default, MODE=PostgreSQL).
-- TEXT is PostgreSQL text and H2's CHARACTER LARGE OBJECT; JSON values are stored as text written by the server.

CREATE TABLE tenants (
    id                         VARCHAR(64)   NOT NULL,
    display_name               VARCHAR(200)  NOT NULL,
    state                      VARCHAR(16)   NOT NULL,
    store_provider             VARCHAR(64)   NOT NULL,
    store_config               TEXT          NOT NULL,
    embedder_provider          VARCHAR(64)   NOT NULL,
    embedder_config            TEXT          NOT NULL,
    reranker_provider          VARCHAR(64),
    reranker_config            TEXT,
    filter_hook_provider       VARCHAR(64),
    filter_hook_config         TEXT,
    partitions                 TEXT          NOT NULL,
    retrieval_mode             VARCHAR(16)   NOT NULL,
    retrieval_top_k            INTEGER       NOT NULL,
    retrieval_min_score        DOUBLE PRECISION,
    retrieval_max_chars        INTEGER,
    retrieval_rerank           BOOLEAN       NOT NULL,
    quota_max_documents        BIGINT        NOT NULL,
    quota_max_chunks           BIGINT        NOT NULL,
    quota_max_bytes            BIGINT        NOT NULL,
    quota_requests_per_minute  INTEGER       NOT NULL,
    quota_ingests_per_minute   INTEGER       NOT NULL,
    active_embedder            VARCHAR(200),
    created_at                 TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at                 TIMESTAMP WITH TIME ZONE NOT NULL,
    revision                   BIGINT        NOT NULL,
    CONSTRAINT pk_tenants PRIMARY KEY (id),
    CONSTRAINT ck_tenants_state CHECK (state IN ('ACTIVE', 'INACTIVE', 'DELETING')),
    CONSTRAINT ck_tenants_mode CHECK (retrieval_mode IN ('vector', 'keyword', 'hybrid'))
);

-- One row per document of a namespace (tenant + partition; '_default' for the tenant's default partition).
-- last_version is the highest version ever begun: a failed version's number is never reused, so its leftovers
-- in a store can never be mistaken for a later version's chunks.
CREATE TABLE documents (
    tenant_id        VARCHAR(64)   NOT NULL,
    partition_id     VARCHAR(64)   NOT NULL,
    document_id      VARCHAR(512)  NOT NULL,
    source           VARCHAR(2048),
    media_type       VARCHAR(200),
    status           VARCHAR(16)   NOT NULL,
    active_version   INTEGER       NOT NULL,
    pending_version  INTEGER       NOT NULL,
    last_version     INTEGER       NOT NULL,
    content_hash     VARCHAR(128),
    chunk_count      INTEGER       NOT NULL,
    bytes            BIGINT        NOT NULL,
    metadata         TEXT          NOT NULL,
    body_text        TEXT,
    error            TEXT,
    created_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at       TIMESTAMP WITH TIME ZONE NOT NULL,
    row_version      BIGINT        NOT NULL,
    CONSTRAINT pk_documents PRIMARY KEY (tenant_id, partition_id, document_id),
    CONSTRAINT fk_documents_tenant FOREIGN KEY (tenant_id) REFERENCES tenants (id),
    CONSTRAINT ck_documents_status CHECK (status IN ('ACTIVE', 'INGESTING', 'FAILED')),
    CONSTRAINT ck_documents_versions CHECK (active_version >= 0 AND pending_version >= 0 AND last_version >= active_version AND last_version >= pending_version)
);

CREATE TABLE ingest_jobs (
    id           VARCHAR(64)  NOT NULL,
    tenant_id    VARCHAR(64)  NOT NULL,
    status       VARCHAR(24)  NOT NULL,
    total        INTEGER      NOT NULL,
    succeeded    INTEGER      NOT NULL,
    skipped      INTEGER      NOT NULL,
    failed       INTEGER      NOT NULL,
    created_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    updated_at   TIMESTAMP WITH TIME ZONE NOT NULL,
    row_version  BIGINT       NOT NULL,
    CONSTRAINT pk_ingest_jobs PRIMARY KEY (id),
    CONSTRAINT fk_ingest_jobs_tenant FOREIGN KEY (tenant_id) REFERENCES tenants (id),
    CONSTRAINT ck_ingest_jobs_status CHECK (status IN ('QUEUED', 'RUNNING', 'SUCCEEDED', 'FAILED', 'PARTIALLY_FAILED'))
);
CREATE INDEX ix_ingest_jobs_tenant_created ON ingest_jobs (tenant_id, created_at);
CREATE INDEX ix_ingest_jobs_status ON ingest_jobs (status);

-- Per-document outcomes of a job, in the order they were recorded.
CREATE TABLE ingest_job_outcomes (
    job_id       VARCHAR(64)   NOT NULL,
    position     INTEGER       NOT NULL,
    document_id  VARCHAR(512),
    result       VARCHAR(16)   NOT NULL,
    version      INTEGER       NOT NULL,
    chunks       INTEGER       NOT NULL,
    http_status  INTEGER       NOT NULL,
    error        TEXT,
    CONSTRAINT pk_ingest_job_outcomes PRIMARY KEY (job_id, position),
    CONSTRAINT fk_ingest_job_outcomes_job FOREIGN KEY (job_id) REFERENCES ingest_jobs (id),
    CONSTRAINT ck_ingest_job_outcomes_result CHECK (result IN ('stored', 'skipped', 'failed'))
);

-- Append-only: the server only ever inserts. No foreign key to tenants, so the trail outlives a purged tenant.
CREATE SEQUENCE audit_log_seq START WITH 1 INCREMENT BY 1;
CREATE TABLE audit_log (
    id         BIGINT        NOT NULL,
    at         TIMESTAMP WITH TIME ZONE NOT NULL,
    actor      VARCHAR(256)  NOT NULL,
    tenant_id  VARCHAR(64),
    action     VARCHAR(64)   NOT NULL,
    target     VARCHAR(1024),
    outcome    VARCHAR(16)   NOT NULL,
    details    TEXT          NOT NULL,
    CONSTRAINT pk_audit_log PRIMARY KEY (id),
    CONSTRAINT ck_audit_log_outcome CHECK (outcome IN ('success', 'denied', 'failure'))
);
CREATE INDEX ix_audit_log_tenant_at ON audit_log (tenant_id, at);
CREATE INDEX ix_audit_log_action_at ON audit_log (action, at);
CREATE INDEX ix_audit_log_at ON audit_log (at);
