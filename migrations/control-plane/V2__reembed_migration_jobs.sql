-- Re-embed migrations run as jobs of kind REEMBED. What a restart needs to resume or roll one back is persisted
-- with the job: the target embedder choice (provider + config JSON, secret references only) and both fingerprint ids.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE ingest_jobs ADD COLUMN kind VARCHAR(16) DEFAULT 'INGEST' NOT NULL;
ALTER TABLE ingest_jobs ADD COLUMN error TEXT;
ALTER TABLE ingest_jobs ADD COLUMN target_embedder_provider VARCHAR(64);
ALTER TABLE ingest_jobs ADD COLUMN target_embedder_config TEXT;
ALTER TABLE ingest_jobs ADD COLUMN from_embedder VARCHAR(200);
ALTER TABLE ingest_jobs ADD COLUMN to_embedder VARCHAR(200);
ALTER TABLE ingest_jobs ADD CONSTRAINT ck_ingest_jobs_kind CHECK (kind IN ('INGEST', 'REEMBED'));
ALTER TABLE ingest_jobs ADD CONSTRAINT ck_ingest_jobs_reembed_target CHECK (kind <> 'REEMBED'
    OR (target_embedder_provider IS NOT NULL AND target_embedder_config IS NOT NULL AND to_embedder IS NOT NULL));
