-- Issue 16: evaluations owned by server leases, and compared with the previous run.
-- owner: the id of the server (server_leases.server_id) running the evaluation; a QUEUED/RUNNING evaluation whose owner
-- holds no live lease is failed by any live server (sweep after each lease renewal, and at boot), so it never blocks
-- the tenant's next evaluation. NULL for evaluations recorded before this column (they count as orphaned).
-- judged_set_fingerprint: SHA-256 of the judged set (JudgedSet#fingerprint); runs on equal fingerprints, Recall@k and
-- actor are comparable. max_drop: the nDCG@10 fall flagged as a regression (request-level; NULL = 0.01).
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE evaluations ADD COLUMN owner VARCHAR(128);
ALTER TABLE evaluations ADD COLUMN judged_set_fingerprint VARCHAR(64);
ALTER TABLE evaluations ADD COLUMN max_drop DOUBLE PRECISION;
CREATE INDEX ix_evaluations_open ON evaluations (status);
