package io.corpora.server.persistence;

import jakarta.persistence.EntityManager;

/** Tenants' usage rows counted again from their documents, by migration V14's own statement (after bulk inserts of rows). */
final class TenantUsageRows {

    private TenantUsageRows() {}

    static void recount(EntityManager em) {
        ControlPlaneJpa.inTx(em, () -> {
            em.createNativeQuery("DELETE FROM tenant_usage").executeUpdate();
            return em.createNativeQuery(MigrationStatements.starting("V14__tenant_usage.sql", "INSERT INTO tenant_usage")).executeUpdate();
        });
    }
}
