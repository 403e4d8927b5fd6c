-- Issue 16: a tenant's hybrid fusion (retrieval.fusion) and its retrieval-quality evaluations.
-- retrieval_fusion: JSON {method, k, vectorWeight, keywordWeight, alpha, normalization}; NULL = the standard
-- (RRF, k = 60, equal weights), which is what every tenant recorded before this column used.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE tenants ADD COLUMN retrieval_fusion VARCHAR(1000);
