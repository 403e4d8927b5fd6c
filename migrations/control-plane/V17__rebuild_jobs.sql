-- Index rebuilds run as jobs of kind REBUILD (they were INGEST jobs), so a start can find an unfinished rebuild of its
-- namespace in the control plane, whichever server runs it: one rebuild per namespace across servers. Rebuild jobs
-- recorded before this migration keep kind INGEST. Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE ingest_jobs DROP CONSTRAINT ck_ingest_jobs_kind;
ALTER TABLE ingest_jobs ADD CONSTRAINT ck_ingest_jobs_kind CHECK (kind IN ('INGEST', 'REBUILD', 'REEMBED', 'RELOCATE'));
