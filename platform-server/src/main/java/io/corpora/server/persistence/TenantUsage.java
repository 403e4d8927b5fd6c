package io.corpora.server.persistence;

import io.corpora.controlplane.DocumentRegistry.CorpusStats;
import jakarta.persistence.EntityManager;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The {@code tenant_usage} row of a tenant: documents, chunks and bytes of its active versions, changed in the same
 * transaction as the document rows they count (migration V14), so reading a tenant's usage costs one row, not an
 * aggregate over its documents. Every change is an increment in SQL: concurrent writers of one tenant never lose one.
 */
final class TenantUsage {

    /** The fleet view's join: one usage row per tenant. */
    static final String JOIN = " LEFT JOIN tenant_usage u ON u.tenant_id = t.id";

    private TenantUsage() {}

    /** A new tenant uses nothing. */
    static void create(EntityManager em, String tenantId) {
        em.createNativeQuery("INSERT INTO tenant_usage (tenant_id, documents, chunks, bytes) VALUES (?, 0, 0, 0)")
                .setParameter(1, tenantId).executeUpdate();
    }

    /** Adds the given changes (negative to subtract); a tenant without a usage row (no tenant row: tools, tests) is left alone. */
    static void add(EntityManager em, String tenantId, long documents, long chunks, long bytes) {
        if (documents == 0 && chunks == 0 && bytes == 0) {
            return;
        }
        em.createNativeQuery("UPDATE tenant_usage SET documents = documents + ?, chunks = chunks + ?, bytes = bytes + ? WHERE tenant_id = ?")
                .setParameter(1, documents).setParameter(2, chunks).setParameter(3, bytes).setParameter(4, tenantId).executeUpdate();
    }

    /** Every document of the tenant was removed. */
    static void clear(EntityManager em, String tenantId) {
        em.createNativeQuery("UPDATE tenant_usage SET documents = 0, chunks = 0, bytes = 0 WHERE tenant_id = ?")
                .setParameter(1, tenantId).executeUpdate();
    }

    static void remove(EntityManager em, String tenantId) {
        em.createNativeQuery("DELETE FROM tenant_usage WHERE tenant_id = ?").setParameter(1, tenantId).executeUpdate();
    }

    /** The tenant's usage, without breakdowns; empty when it has no usage row. */
    static Optional<CorpusStats> read(EntityManager em, String tenantId) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("SELECT documents, chunks, bytes FROM tenant_usage WHERE tenant_id = ?")
                .setParameter(1, tenantId).getResultList();
        return rows.stream().findFirst().map(r -> new CorpusStats(((Number) r[0]).longValue(), ((Number) r[1]).longValue(),
                ((Number) r[2]).longValue(), Map.of(), Map.of()));
    }
}
