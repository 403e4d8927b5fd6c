-- Exact search over one tenant's 11,000 rows, with the vector stored as pgvector's default (EXTERNAL: moved to TOAST
-- once a row outgrows ~2 KB, as the store's rows with text, index_text and metadata do) and with STORAGE PLAIN (kept
-- in the row) and MAIN (kept in the row while it fits a page; what the store declares since migration V2). The exact
-- search is the store's: a MATERIALIZED scan of the namespace, then the nearest 20. The text here is random hex, which
-- does not compress; plugins/store-pgvector's SciFactSearchMeasurement measures the store itself on real text.
--   psql -h 127.0.0.1 -U postgres -d corpora_test -f scripts/pgvector-exact-toast.sql
-- Tables exp_toast, exp_plain and exp_main are made and dropped.
\set ON_ERROR_STOP on
DROP TABLE IF EXISTS exp_toast; DROP TABLE IF EXISTS exp_plain; DROP TABLE IF EXISTS exp_main;
CREATE TABLE exp_toast (tenant text, partition_key text, embedder text, chunk_id text, text text, index_text text, metadata jsonb, embedding vector(384));
INSERT INTO exp_toast
SELECT 't1', '_default', 'e', 'c' || g,
       (SELECT string_agg(md5(random()::text), ' ') FROM generate_series(1, 21) WHERE g > 0),
       (SELECT string_agg(md5(random()::text), ' ') FROM generate_series(1, 23) WHERE g > 0),
       jsonb_build_object('_tenant', 't1', '_document', 'd' || g, 'source', 'bench'),
       (SELECT array_agg(random() - 0.5)::vector(384) FROM generate_series(1, 384) WHERE g > 0)
FROM generate_series(1, 11000) g;
CREATE TABLE exp_plain (LIKE exp_toast);
ALTER TABLE exp_plain ALTER COLUMN embedding SET STORAGE PLAIN;
INSERT INTO exp_plain SELECT * FROM exp_toast;
CREATE TABLE exp_main (LIKE exp_toast);
ALTER TABLE exp_main ALTER COLUMN embedding SET STORAGE MAIN;
INSERT INTO exp_main SELECT * FROM exp_toast;
CREATE INDEX ON exp_toast (tenant, partition_key, embedder);
CREATE INDEX ON exp_plain (tenant, partition_key, embedder);
CREATE INDEX ON exp_main (tenant, partition_key, embedder);
VACUUM ANALYZE exp_toast; VACUUM ANALYZE exp_plain; VACUUM ANALYZE exp_main;
SELECT c.relname, pg_size_pretty(pg_relation_size(c.oid)) AS heap, pg_size_pretty(pg_relation_size(c.reltoastrelid)) AS toast
FROM pg_class c WHERE relname IN ('exp_toast', 'exp_plain', 'exp_main');
\timing on
SELECT (SELECT array_agg(random() - 0.5)::vector(384) FROM generate_series(1, 384))::text AS q \gset
SET plan_cache_mode = force_custom_plan;
PREPARE t(vector) AS WITH candidates AS MATERIALIZED (SELECT chunk_id, embedding <=> $1 AS distance FROM exp_toast WHERE tenant = 't1' AND partition_key = '_default' AND embedder = 'e' AND embedding IS NOT NULL) SELECT chunk_id FROM candidates ORDER BY distance LIMIT 20;
PREPARE p(vector) AS WITH candidates AS MATERIALIZED (SELECT chunk_id, embedding <=> $1 AS distance FROM exp_plain WHERE tenant = 't1' AND partition_key = '_default' AND embedder = 'e' AND embedding IS NOT NULL) SELECT chunk_id FROM candidates ORDER BY distance LIMIT 20;
PREPARE m(vector) AS WITH candidates AS MATERIALIZED (SELECT chunk_id, embedding <=> $1 AS distance FROM exp_main WHERE tenant = 't1' AND partition_key = '_default' AND embedder = 'e' AND embedding IS NOT NULL) SELECT chunk_id FROM candidates ORDER BY distance LIMIT 20;
-- the first of each warms the cache; read the rest: EXTERNAL (t), PLAIN (p), MAIN (m), in turn
EXECUTE t(:'q'); EXECUTE p(:'q'); EXECUTE m(:'q');
EXECUTE t(:'q'); EXECUTE p(:'q'); EXECUTE m(:'q');
EXECUTE t(:'q'); EXECUTE p(:'q'); EXECUTE m(:'q');
EXECUTE t(:'q'); EXECUTE p(:'q'); EXECUTE m(:'q');
EXECUTE t(:'q'); EXECUTE p(:'q'); EXECUTE m(:'q');
\timing off
DROP TABLE exp_toast;
DROP TABLE exp_plain;
DROP TABLE exp_main;
