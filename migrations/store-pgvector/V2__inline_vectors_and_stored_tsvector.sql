-- Corpora store-pgvector: two changes to the chunk table of the default settings (see V1).
-- Kept identical to what PgVectorStore.schemaStatements() adds to V1 by SchemaStatementsTest and MigrationIT.
--
-- 1. The vector stays in the row (STORAGE MAIN) while the row fits a page. pgvector declares vector EXTERNAL, so once a
--    row outgrew ~2 KB the vector was what moved to TOAST and every exact search fetched each row's vector from there.
--    Rows written before this keep their layout until rewritten; step 2 rewrites the table.
-- 2. The keyword leg's tsvector is a stored generated column with its own GIN index, so ranking a row no longer parses
--    its text again; the expression index it supersedes is dropped.
--    ADD COLUMN ... STORED rewrites the table under an ACCESS EXCLUSIVE lock: on a large table, run it in a quiet
--    window (for PostgreSQL 15 there is no online form of a stored generated column).

ALTER TABLE corpora_chunks ALTER COLUMN embedding SET STORAGE MAIN;

ALTER TABLE corpora_chunks ADD COLUMN IF NOT EXISTS index_tsv tsvector GENERATED ALWAYS AS (to_tsvector('english'::regconfig, index_text)) STORED;

CREATE INDEX IF NOT EXISTS corpora_chunks_index_tsv_idx ON corpora_chunks USING gin (index_tsv);

DROP INDEX IF EXISTS corpora_chunks_fts_english_idx;
