-- Tenant density (issue 19): a tenant may be OFFLOADED — its data-plane calls refused, nothing held open, and its store
-- data moved to the store's offload location (where the store supports it); reactivation restores it.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

ALTER TABLE tenants DROP CONSTRAINT ck_tenants_state;
ALTER TABLE tenants ADD CONSTRAINT ck_tenants_state CHECK (state IN ('ACTIVE', 'INACTIVE', 'OFFLOADED', 'DELETING'));
