-- Every server sweeps for versions left pending by dead servers every few seconds (ServerLeases#orphanedWrites). It
-- reads them through ix_documents_writer ("writer > ''"), since only a pending version names its writer, instead of
-- every document of every tenant. The index puts NULLs first: with H2's DEFAULT_NULL_ORDERING=HIGH they sorted last,
-- inside that open range, so the sweep still read one index entry per document.
-- Versions begun before leases (V7) are pending without a writer: they get the writer no lease ever has
-- (ServerLeases#NO_LEASE_WRITER), so they stay adoptable as a dead server's.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

DROP INDEX ix_documents_writer;
CREATE INDEX ix_documents_writer ON documents (writer NULLS FIRST);
UPDATE documents SET writer = '(no server lease)' WHERE status = 'INGESTING' AND pending_version > 0 AND writer IS NULL;
