-- Every retrieval asks the control plane for the active version of each document its hits come from
-- (JpaDocumentRegistry#activeVersions: 50-100 documents for a hybrid query). Through the primary key each lookup read
-- the whole row, the document's text included: on H2 a large tenant's rows do not fit its page cache, so the lookups
-- decoded pages from the file (TenantUsageBenchmark, 50 documents of a 33,333-document tenant: 2.2-2.7 ms, 1.0-1.6 with
-- this index). This index holds the key and the active version, so the lookup reads it alone (H2 takes a column from the
-- index entry when the entry has it; PostgreSQL can scan it index-only). An activation updates one more index entry.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

CREATE INDEX ix_documents_active_version ON documents (tenant_id, partition_id, document_id, active_version);
