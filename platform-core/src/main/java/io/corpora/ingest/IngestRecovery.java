package io.corpora.ingest;

import io.corpora.controlplane.DocumentRecord;
import io.corpora.controlplane.DocumentRegistry;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobRepository;
import io.corpora.controlplane.ServerLeases;
import io.corpora.controlplane.Tenant;
import io.corpora.controlplane.TenantRepository;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.ReservedKeys;
import io.corpora.spi.store.VectorStore;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * What happens to work a dead server left: ingest jobs it owned are closed (their unreported documents count as failed,
 * with the reason), and a document version it was writing is failed and its chunks removed. The previous version was
 * never switched off, so it keeps serving; the isolation guard already hid the unfinished one.
 *
 * <p>Work belongs to the server whose {@link ServerLeases lease} it carries. Only work whose owner holds no live lease
 * is touched, and each piece is adopted (a compare-and-set on its owner) by exactly one live server before it is
 * closed, so a server that boots, or sweeps while the cluster runs, never fails another live server's work and two
 * servers never close the same job twice.
 */
public final class IngestRecovery {

    private static final Logger LOG = Logger.getLogger(IngestRecovery.class.getName());
    static final String INTERRUPTED = "interrupted: the server writing it stopped (%s) before it was stored; the previous version, if any, is unchanged";
    // The job's outcomes are recorded in groups after each document's version is switched in, so an unreported document
    // may be stored already: sending it again is safe either way (unchanged content is skipped).
    static final String JOB_INTERRUPTED = "interrupted: the server running the job stopped (%s) before this document's outcome was "
            + "recorded; it may have been stored (its new version then serves), or not (a version not yet switched in was discarded "
            + "and the previous version, if any, still serves): send it again to be sure, an unchanged document is skipped";
    static final String REBUILD_INTERRUPTED = "interrupted: the server running the rebuild stopped (%s) before this document's outcome "
            + "was recorded; its active version still serves, and orphaned or stale chunks were not removed: run index:rebuild again";

    private IngestRecovery() {}

    /** What recovery found and did. */
    public record Report(int jobsClosed, int versionsFailed, int chunksRemoved, List<String> problems) {
        public boolean idle() {
            return jobsClosed + versionsFailed + chunksRemoved == 0 && problems.isEmpty();
        }
    }

    /**
     * Adopts and closes every orphaned ingest and rebuild job and every orphaned pending version ({@code self} becomes their owner
     * first). Safe to run on every server at once and at any time: what another server adopted first is skipped.
     */
    public static Report adoptOrphans(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, ServerLeases leases,
                                      String self, long nowMillis, Function<Tenant, VectorStore> stores) {
        List<String> problems = new ArrayList<>();
        // A rebuild's job is closed too: while it stays unfinished, no server starts another rebuild of its namespace.
        int jobsClosed = closeOrphanedJobs(JobKind.INGEST, JOB_INTERRUPTED, jobs, leases, self, nowMillis)
                + closeOrphanedJobs(JobKind.REBUILD, REBUILD_INTERRUPTED, jobs, leases, self, nowMillis);
        int versionsFailed = 0;
        int chunksRemoved = 0;
        Map<String, Optional<Tenant>> tenantById = new HashMap<>();
        for (ServerLeases.PendingWrite write : leases.orphanedWrites(nowMillis)) {
            Namespace namespace = write.namespace();
            Optional<Tenant> tenant = tenantById.computeIfAbsent(namespace.tenant(), tenants::find);
            if (tenant.isEmpty() || !leases.adoptWrite(write, self, nowMillis)) {
                continue;
            }
            try {
                VectorStore store = stores.apply(tenant.get());
                chunksRemoved += store.deleteWhere(namespace, MetadataFilter.and(
                        MetadataFilter.eq(ReservedKeys.DOCUMENT, write.documentId()),
                        MetadataFilter.eq(ReservedKeys.VERSION, write.version())));
                registry.failVersion(namespace, write.documentId(), write.version(), INTERRUPTED.formatted(ownerText(write.writer())));
                versionsFailed++;
            } catch (RuntimeException e) {
                // Adopted but not closed: it stays hidden and pending under this server, whose next boot retries it.
                problems.add(namespace + "/" + write.documentId() + " v" + write.version() + ": " + e);
                LOG.log(Level.WARNING, "recovery of " + namespace + "/" + write.documentId() + " failed; its unfinished version stays hidden", e);
            }
        }
        return new Report(jobsClosed, versionsFailed, chunksRemoved, problems);
    }

    /**
     * At boot: removes chunks of superseded versions that a crash between an activation and their deletion left behind.
     * Walks every tenant's namespaces (the marker makes it cheap); concurrent servers delete the same chunks idempotently.
     */
    public static Report removeLeftovers(TenantRepository tenants, DocumentRegistry registry, Function<Tenant, VectorStore> stores) {
        List<String> problems = new ArrayList<>();
        int chunksRemoved = 0;
        String after = null;
        while (true) {
            List<Tenant> page = tenants.list(after, 100);
            for (Tenant tenant : page) {
                try {
                    VectorStore store = null;
                    for (Namespace namespace : tenant.namespaces()) {
                        for (String documentId : registry.awaitingCleanup(namespace)) {
                            DocumentRecord document = registry.find(namespace, documentId).orElse(null);
                            if (document == null || document.activeVersion() == 0) {
                                continue;
                            }
                            if (store == null) {
                                store = stores.apply(tenant);
                            }
                            chunksRemoved += SupersededChunks.remove(store, registry, namespace, documentId, document.activeVersion());
                        }
                    }
                } catch (RuntimeException e) {
                    problems.add("tenant " + tenant.id() + ": " + e);
                    LOG.log(Level.WARNING, "leftover cleanup of tenant " + tenant.id() + " failed; the next boot retries", e);
                }
            }
            if (page.size() < 100) {
                break;
            }
            after = page.get(page.size() - 1).id();
        }
        return new Report(0, 0, chunksRemoved, problems);
    }

    /** Boot-time recovery: orphans adopted and closed, then leftovers removed; one report. */
    public static Report recover(TenantRepository tenants, DocumentRegistry registry, JobRepository jobs, ServerLeases leases,
                                 String self, long nowMillis, Function<Tenant, VectorStore> stores) {
        Report adopted = adoptOrphans(tenants, registry, jobs, leases, self, nowMillis, stores);
        Report leftovers = removeLeftovers(tenants, registry, stores);
        List<String> problems = new ArrayList<>(adopted.problems());
        problems.addAll(leftovers.problems());
        return new Report(adopted.jobsClosed(), adopted.versionsFailed(), adopted.chunksRemoved() + leftovers.chunksRemoved(), problems);
    }

    /** Adopts and closes the orphaned jobs of {@code kind}, each unreported document failed with {@code reason}; how many it closed. */
    private static int closeOrphanedJobs(JobKind kind, String reason, JobRepository jobs, ServerLeases leases, String self, long nowMillis) {
        int closed = 0;
        for (ServerLeases.OrphanedJob orphan : leases.orphanedJobs(kind, nowMillis)) {
            if (!leases.adoptJob(orphan.jobId(), self, nowMillis)) {
                continue; // another server adopted it first, or it finished meanwhile
            }
            Optional<IngestJob> job = jobs.find(orphan.tenant(), orphan.jobId());
            if (job.isEmpty() || job.get().finished()) {
                continue;
            }
            // Each document the job never reported gets a failed outcome saying why, so the closed job's counts add up.
            int unreported = job.get().total() - job.get().outcomes().size();
            if (unreported > 0) {
                jobs.recordOutcomes(orphan.jobId(), Collections.nCopies(unreported,
                        IngestJob.Outcome.failed(null, 503, "job-interrupted", reason.formatted(ownerText(orphan.owner())))));
            }
            jobs.finish(orphan.jobId());
            closed++;
        }
        return closed;
    }

    private static String ownerText(String owner) {
        return owner == null || owner.equals(ServerLeases.NO_LEASE_WRITER) ? "a server restart" : "server " + owner + ", lease expired";
    }
}
