-- A tenant's URL-ingest policy: the exact origins documents may be fetched from, and those of them that may resolve
-- to private addresses. JSON arrays of origins; NULL when the tenant allows no URL ingest.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE tenants ADD COLUMN ingest_allowed_origins TEXT;
ALTER TABLE tenants ADD COLUMN ingest_private_origins TEXT;
