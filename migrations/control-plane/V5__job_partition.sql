-- A job remembers the namespace it writes to, so the jobs routes show a partition-bound token only its partition's
-- jobs. NULL: a tenant-wide job (a re-embed migration) or one recorded before this column; such jobs are shown only
-- to tokens that may use every partition of the tenant.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE ingest_jobs ADD COLUMN partition_id VARCHAR(64);
CREATE INDEX ix_ingest_jobs_tenant_partition_created ON ingest_jobs (tenant_id, partition_id, created_at);
