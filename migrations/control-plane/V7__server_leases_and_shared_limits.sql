-- Scale-out (issue 14): work is owned by a server's lease, not by the process that happens to boot next, and rate
-- limits are counted in the control plane every server shares.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL). Times are epoch milliseconds of the writing server's clock
-- (servers are assumed NTP-synchronised to well within a lease's time to live).

-- One row per running server process (its id: the server name and a per-boot suffix). A server renews its row every
-- ttl/3; a row whose expires_ms has passed belongs to a dead server, whose work any live server may adopt.
CREATE TABLE server_leases (
    server_id     VARCHAR(200)  NOT NULL,
    server_name   VARCHAR(128)  NOT NULL,
    started_ms    BIGINT        NOT NULL,
    heartbeat_ms  BIGINT        NOT NULL,
    expires_ms    BIGINT        NOT NULL,
    CONSTRAINT pk_server_leases PRIMARY KEY (server_id)
);
CREATE INDEX ix_server_leases_name ON server_leases (server_name);

-- The server whose lease a job runs under; NULL for jobs recorded before leases (no live owner: adoptable).
ALTER TABLE ingest_jobs ADD COLUMN owner VARCHAR(200);
-- The server writing the document's pending version; NULL when none is pending or it was begun before leases.
ALTER TABLE documents ADD COLUMN writer VARCHAR(200);
CREATE INDEX ix_documents_writer ON documents (writer);

-- Token buckets shared by every server: one row per tenant and kind ("requests:acme"), updated under its row lock.
CREATE TABLE rate_limit_buckets (
    bucket_key  VARCHAR(200)      NOT NULL,
    tokens      DOUBLE PRECISION  NOT NULL,
    updated_ms  BIGINT            NOT NULL,
    CONSTRAINT pk_rate_limit_buckets PRIMARY KEY (bucket_key)
);
