package io.corpora.server.persistence;

import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.ServerLeases;
import io.corpora.spi.Namespace;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.persistence.EntityManager;
import jakarta.persistence.PersistenceContext;
import jakarta.transaction.Transactional;
import java.util.List;

/**
 * Server leases on the control-plane database, in portable SQL (PostgreSQL and H2). Adoption is one conditional
 * {@code UPDATE}: the row changes owner only while its owner holds no live lease, so of several servers adopting the
 * same orphan at once exactly one sees an updated row.
 */
@ApplicationScoped
@Transactional
public class JpaServerLeases implements ServerLeases {

    /** Owners that hold no live lease: never registered (NULL, pre-lease rows), expired, or purged (also evaluations'). */
    static final String DEAD = "(%s IS NULL OR %s NOT IN (SELECT l.server_id FROM server_leases l WHERE l.expires_ms >= ?))";
    /**
     * Pending versions whose writer is dead. Every server runs it every few seconds, so it must not read every document of
     * every tenant: {@code writer > ''} is a range on {@code ix_documents_writer}, and only a pending version names its
     * writer ({@link #NO_LEASE_WRITER} when it had no server identity).
     */
    static final String ORPHANED_WRITES = "SELECT d.tenant_id, d.partition_id, d.document_id, d.pending_version, d.writer FROM documents d"
            + " WHERE d.writer > '' AND d.status = 'INGESTING' AND d.pending_version > 0 AND " + DEAD.formatted("d.writer", "d.writer")
            + " ORDER BY d.tenant_id, d.partition_id, d.document_id";

    @PersistenceContext(unitName = ControlPlane.PERSISTENCE_UNIT)
    EntityManager em;

    public JpaServerLeases() {}

    /** Outside the container (tests): the caller manages transactions. */
    JpaServerLeases(EntityManager em) {
        this.em = em;
    }

    @Override
    public void register(String serverId, String serverName, long nowMillis, long ttlMillis) {
        if (!renew(serverId, nowMillis, ttlMillis)) {
            em.createNativeQuery("INSERT INTO server_leases (server_id, server_name, started_ms, heartbeat_ms, expires_ms) VALUES (?, ?, ?, ?, ?)")
                    .setParameter(1, serverId).setParameter(2, serverName).setParameter(3, nowMillis).setParameter(4, nowMillis)
                    .setParameter(5, nowMillis + ttlMillis).executeUpdate();
        }
    }

    @Override
    public boolean renew(String serverId, long nowMillis, long ttlMillis) {
        return em.createNativeQuery("UPDATE server_leases SET heartbeat_ms = ?, expires_ms = ? WHERE server_id = ?")
                .setParameter(1, nowMillis).setParameter(2, nowMillis + ttlMillis).setParameter(3, serverId).executeUpdate() == 1;
    }

    @Override
    public int expirePredecessors(String serverName, String serverId) {
        return em.createNativeQuery("UPDATE server_leases SET expires_ms = 0 WHERE server_name = ? AND server_id <> ? AND expires_ms > 0")
                .setParameter(1, serverName).setParameter(2, serverId).executeUpdate();
    }

    @Override
    public void release(String serverId) {
        em.createNativeQuery("DELETE FROM server_leases WHERE server_id = ?").setParameter(1, serverId).executeUpdate();
    }

    @Override
    public int purgeExpired(long olderThanMillis) {
        return em.createNativeQuery("DELETE FROM server_leases WHERE expires_ms < ?").setParameter(1, olderThanMillis).executeUpdate();
    }

    @Override
    public List<Lease> live(long nowMillis) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("SELECT server_id, server_name, started_ms, heartbeat_ms, expires_ms FROM server_leases"
                + " WHERE expires_ms >= ? ORDER BY started_ms, server_id").setParameter(1, nowMillis).getResultList();
        return rows.stream().map(r -> new Lease((String) r[0], (String) r[1], number(r[2]), number(r[3]), number(r[4]))).toList();
    }

    @Override
    public List<OrphanedJob> orphanedJobs(JobKind kind, long nowMillis) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery("SELECT j.tenant_id, j.id, j.owner FROM ingest_jobs j WHERE j.kind = ? AND j.status IN (?, ?) AND "
                        + DEAD.formatted("j.owner", "j.owner") + " ORDER BY j.created_at, j.id")
                .setParameter(1, kind.name()).setParameter(2, JpaJobRepository.UNFINISHED.get(0)).setParameter(3, JpaJobRepository.UNFINISHED.get(1)).setParameter(4, nowMillis)
                .getResultList();
        return rows.stream().map(r -> new OrphanedJob((String) r[0], (String) r[1], (String) r[2])).toList();
    }

    @Override
    public boolean adoptJob(String jobId, String newOwner, long nowMillis) {
        return em.createNativeQuery("UPDATE ingest_jobs SET owner = ?, row_version = row_version + 1 WHERE id = ? AND status IN (?, ?) AND "
                        + DEAD.formatted("owner", "owner"))
                .setParameter(1, newOwner).setParameter(2, jobId).setParameter(3, JpaJobRepository.UNFINISHED.get(0)).setParameter(4, JpaJobRepository.UNFINISHED.get(1))
                .setParameter(5, nowMillis).executeUpdate() == 1;
    }

    @Override
    public List<PendingWrite> orphanedWrites(long nowMillis) {
        @SuppressWarnings("unchecked")
        List<Object[]> rows = em.createNativeQuery(ORPHANED_WRITES).setParameter(1, nowMillis).getResultList();
        return rows.stream().map(r -> new PendingWrite(namespace((String) r[0], (String) r[1]), (String) r[2], (int) number(r[3]), (String) r[4])).toList();
    }

    @Override
    public boolean adoptWrite(PendingWrite write, String newOwner, long nowMillis) {
        return em.createNativeQuery("UPDATE documents SET writer = ?, row_version = row_version + 1 WHERE tenant_id = ? AND partition_id = ?"
                        + " AND document_id = ? AND pending_version = ? AND status = 'INGESTING' AND " + DEAD.formatted("writer", "writer"))
                .setParameter(1, newOwner).setParameter(2, write.namespace().tenant()).setParameter(3, write.namespace().partitionKey())
                .setParameter(4, write.documentId()).setParameter(5, write.version()).setParameter(6, nowMillis).executeUpdate() == 1;
    }

    private static Namespace namespace(String tenant, String partitionKey) {
        return Namespace.DEFAULT_PARTITION.equals(partitionKey) ? Namespace.of(tenant) : Namespace.of(tenant, partitionKey);
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }
}
