-- Corpora store-pgvector: the two GIN indexes of the chunk table (see V1, V2) without GIN's pending list.
-- Kept identical to what PgVectorStore.schemaStatements() makes by SchemaStatementsTest and MigrationIT (a fresh table
-- gets its GIN indexes WITH (fastupdate = off); these statements bring the indexes of V1 and V2 to the same state).
--
-- With the pending list (fastupdate, on by default) insertions wait in a list every search of the index reads in full
-- until a VACUUM merges it; while it is long the planner prices the GIN index out and the keyword leg tests each query
-- term against each row's tsvector instead (0.25-1.45 s per statement on a 2,200-row tenant; the store's README, "Keyword
-- search and GIN's pending list"). Off, each write updates the index itself: writes cost a little more, searches stay fast.
-- Entries already pending stay until the next VACUUM of the table, or run
--     SELECT gin_clean_pending_list('corpora_chunks_index_tsv_idx'), gin_clean_pending_list('corpora_chunks_metadata_idx');
-- On a table LIST-partitioned by tenant (tenantPartitions), PostgreSQL refuses a storage parameter on the partitioned
-- index: set it on each partition's index instead (what ensureSchema does).

ALTER INDEX corpora_chunks_metadata_idx SET (fastupdate = off);

ALTER INDEX corpora_chunks_index_tsv_idx SET (fastupdate = off);
