package io.corpora.controlplane;

import io.corpora.spi.Namespace;
import java.util.List;

/**
 * Which server owns which work, through the control plane every server shares (JPA-backed in the server). A server
 * holds a lease it renews; work (an ingest job, a document version being written) is stamped with its owner's id; work
 * whose owner holds no live lease is orphaned, and exactly one live server {@code adopt}s each orphan (a compare-and-set
 * on the owner column) before finishing or failing it. Times are epoch milliseconds.
 */
public interface ServerLeases {

    /**
     * The writer of a version begun without a server identity (before leases, or by a registry outside a server): no
     * lease ever has this id, so the version is always adoptable. Migration V13 names such versions with the same text.
     */
    String NO_LEASE_WRITER = "(no server lease)";

    /** Creates or refreshes {@code serverId}'s lease until {@code nowMillis + ttlMillis}. */
    void register(String serverId, String serverName, long nowMillis, long ttlMillis);

    /** Extends the lease; false if it no longer exists (purged after expiring: its work may already be adopted). */
    boolean renew(String serverId, long nowMillis, long ttlMillis);

    /**
     * Ends the leases of earlier processes of the same server name (a name runs one process at a time, so a process that
     * boots knows its predecessors are dead) and returns how many it ended.
     */
    int expirePredecessors(String serverName, String serverId);

    /** Removes the lease (clean shutdown): the server's unfinished work becomes adoptable at once. */
    void release(String serverId);

    /** Leases that expired before {@code olderThanMillis} are removed; their servers' work stays orphaned, not lost. */
    int purgeExpired(long olderThanMillis);

    /** Live leases at {@code nowMillis}, oldest first. */
    List<Lease> live(long nowMillis);

    /** Unfinished jobs of {@code kind} whose owner holds no live lease at {@code nowMillis}, oldest first. */
    List<OrphanedJob> orphanedJobs(JobKind kind, long nowMillis);

    /** Makes {@code newOwner} the job's owner if it is still unfinished and orphaned; true for exactly one caller. */
    boolean adoptJob(String jobId, String newOwner, long nowMillis);

    /**
     * Document versions being written whose writer holds no live lease at {@code nowMillis}. Every server asks after each
     * renewal, so implementations find them without reading every document.
     */
    List<PendingWrite> orphanedWrites(long nowMillis);

    /** Makes {@code newOwner} the version's writer if it is still pending and orphaned; true for exactly one caller. */
    boolean adoptWrite(PendingWrite write, String newOwner, long nowMillis);

    /** One server's lease. */
    record Lease(String serverId, String serverName, long startedMillis, long heartbeatMillis, long expiresMillis) {}

    /** An unfinished job whose owner is dead; {@code owner} is null for a job recorded before leases. */
    record OrphanedJob(String tenant, String jobId, String owner) {}

    /** A document version begun and never activated or failed. {@code writer} is null for one begun before leases. */
    record PendingWrite(Namespace namespace, String documentId, int version, String writer) {}
}
