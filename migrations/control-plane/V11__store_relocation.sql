-- Store relocations run as jobs of kind RELOCATE. What a restart needs to resume, finish or roll one back is persisted
-- with the job: the store choice the corpus moves from and the one it moves to (provider + config JSON, secret
-- references only). Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE ingest_jobs ADD COLUMN from_store_provider VARCHAR(64);
ALTER TABLE ingest_jobs ADD COLUMN from_store_config TEXT;
ALTER TABLE ingest_jobs ADD COLUMN target_store_provider VARCHAR(64);
ALTER TABLE ingest_jobs ADD COLUMN target_store_config TEXT;
ALTER TABLE ingest_jobs DROP CONSTRAINT ck_ingest_jobs_kind;
ALTER TABLE ingest_jobs ADD CONSTRAINT ck_ingest_jobs_kind CHECK (kind IN ('INGEST', 'REEMBED', 'RELOCATE'));
ALTER TABLE ingest_jobs ADD CONSTRAINT ck_ingest_jobs_relocate_stores CHECK (kind <> 'RELOCATE'
    OR (from_store_provider IS NOT NULL AND from_store_config IS NOT NULL
        AND target_store_provider IS NOT NULL AND target_store_config IS NOT NULL));
