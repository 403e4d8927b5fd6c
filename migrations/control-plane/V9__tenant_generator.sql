-- A tenant's generator (the language model that answers ask; NULL provider: none, ask answers 501) and its answer
-- policy (prompt template and query transforms, a JSON object; NULL: the defaults, all transforms off).
-- Secrets in generator_config are config-key references, never literals (the tenant validator refuses literals).
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE tenants ADD COLUMN generator_provider VARCHAR(64);
ALTER TABLE tenants ADD COLUMN generator_config TEXT;
ALTER TABLE tenants ADD COLUMN answer_policy TEXT;
