-- What each tenant's active document versions add up to: documents, chunks and bytes, kept by the transactions that
-- change them (JpaDocumentRegistry: activateVersion, delete, deleteTenant), so a quota check before every document and
-- a page of the fleet view read one row per tenant instead of aggregating the documents table (every document of the
-- tenant, or of the whole deployment, on every call). Created with the tenant (JpaTenantRepository#create) and removed
-- with it. Counted here once from the documents the control plane already holds.
-- Portable SQL: PostgreSQL 15 and H2 2.3 (MODE=PostgreSQL).

CREATE TABLE tenant_usage (
    tenant_id  VARCHAR(64) NOT NULL,
    documents  BIGINT      NOT NULL,
    chunks     BIGINT      NOT NULL,
    bytes      BIGINT      NOT NULL,
    CONSTRAINT pk_tenant_usage PRIMARY KEY (tenant_id),
    CONSTRAINT fk_tenant_usage_tenant FOREIGN KEY (tenant_id) REFERENCES tenants (id)
);

INSERT INTO tenant_usage (tenant_id, documents, chunks, bytes)
SELECT t.id, COUNT(d.document_id), COALESCE(SUM(d.chunk_count), 0), COALESCE(SUM(d.bytes), 0)
FROM tenants t LEFT JOIN documents d ON d.tenant_id = t.id AND d.active_version > 0
GROUP BY t.id;
