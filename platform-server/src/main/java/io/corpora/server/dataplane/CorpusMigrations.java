package io.corpora.server.dataplane;

import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.ServerLeases;
import io.corpora.controlplane.Tenant;
import io.corpora.ingest.CorpusMigration;
import io.corpora.ingest.GracefulStop;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.ReembedMigration;
import io.corpora.ingest.StoreRelocation;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Runs the {@link CorpusMigration}s — re-embed migrations ({@link ReembedMigration}) and store relocations
 * ({@link StoreRelocation}) — on the container's managed executor, audits their start and end
 * ({@code tenant.embedder.migrate}/{@code migrated}, {@code tenant.store.relocate}/{@code relocated}), and adopts the
 * ones whose server died or restarted (lease expiry): they are finished, resumed or rolled back as
 * {@code corpora.reembed.onRestart} says ({@code resume}, the default, or {@code rollback}). At a clean stop the runs
 * end where they are ({@link #gracefulStop}), so their jobs are handed over open, not broken by the closing persistence
 * unit.
 */
@ApplicationScoped
public class CorpusMigrations implements StoppableWork {

    private static final Logger LOG = Logger.getLogger(CorpusMigrations.class.getName());
    private static final String SYSTEM = "system";

    @Resource
    ManagedExecutorService executor;

    @Inject
    DataPlane dataPlane;

    @Inject
    AuditLog audit;

    @Inject
    @ConfigProperty(name = "corpora.reembed.onRestart", defaultValue = "resume")
    String onRestart;

    /** How long the old generation or store copy outlives the switch, for reads of the tenant just before it. */
    @Inject
    @ConfigProperty(name = "corpora.reembed.drainSeconds", defaultValue = "5")
    int drainSeconds;

    /** How long a start waits for the tenant's ingests in flight before refusing (409). */
    @Inject
    @ConfigProperty(name = "corpora.reembed.claimWaitSeconds", defaultValue = "30")
    int claimWaitSeconds;

    /**
     * One kind of migration as this server runs it: the core runner, the audit actions of its start and end, what
     * their entries record of a job, and what the tenant keeps when a recovery fails.
     */
    private record Kind(CorpusMigration<?> runner, String startAction, String endAction, Function<IngestJob, Map<String, Object>> details,
                        String unchanged) {}

    private volatile Map<JobKind, Kind> kinds;
    /** Shared by both kinds' runners. */
    private final GracefulStop stop = new GracefulStop();

    /** Starts re-embedding the tenant's corpus with {@code embedder} in the background; returns the QUEUED job. */
    public IngestJob reembed(String actor, Tenant tenant, PluginChoice embedder) {
        return start(kind(JobKind.REEMBED), actor, tenant, embedder);
    }

    /** Starts moving the tenant's corpus to {@code targetStore} in the background; returns the QUEUED job. */
    public IngestJob relocate(String actor, Tenant tenant, PluginChoice targetStore) {
        return start(kind(JobKind.RELOCATE), actor, tenant, targetStore);
    }

    /**
     * At boot, after ingest recovery, and on every lease sweep: each unfinished migration whose server holds no live lease
     * is adopted by this server (exactly one server wins each) and finished, resumed or rolled back. A migration running
     * on a live server is never touched. A kind whose recovery fails leaves the other's alone; the next sweep retries.
     */
    public void recover(ServerLeases leases, String self) {
        CorpusMigration.OnRestart policy = "rollback".equals(onRestart.trim().toLowerCase(Locale.ROOT))
                ? CorpusMigration.OnRestart.ROLL_BACK : CorpusMigration.OnRestart.RESUME;
        for (JobKind jobKind : List.of(JobKind.REEMBED, JobKind.RELOCATE)) {
            try {
                adoptOrphans(kind(jobKind), leases, self, policy);
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "recovering " + jobKind.name().toLowerCase(Locale.ROOT) + " jobs failed; their tenants keep what they"
                        + " serve and the next sweep retries", e);
            }
        }
    }

    private IngestJob start(Kind kind, String actor, Tenant tenant, PluginChoice target) {
        CorpusMigration.Started started;
        try {
            started = kind.runner().start(tenant, target);
        } catch (RuntimeException e) {
            audit(actor, tenant.id(), kind.startAction(), "failure", Map.of("provider", target.provider(), "error", String.valueOf(e.getMessage())));
            throw e;
        }
        audit(actor, tenant.id(), kind.startAction(), "success", kind.details().apply(started.job()));
        try {
            stop.execute(executor, () -> runAndAudit(kind, actor, started));
        } catch (RuntimeException e) {
            started.claim().release();
            dataPlane.jobs().fail(started.job().id(), "could not be scheduled: " + e);
            throw e;
        }
        return started.job();
    }

    private void adoptOrphans(Kind kind, ServerLeases leases, String self, CorpusMigration.OnRestart policy) {
        long now = System.currentTimeMillis();
        for (ServerLeases.OrphanedJob orphan : leases.orphanedJobs(kind.runner().kind(), now)) {
            if (!leases.adoptJob(orphan.jobId(), self, now)) {
                continue;
            }
            IngestJob job = dataPlane.jobs().find(orphan.tenant(), orphan.jobId()).orElse(null);
            if (job == null || job.finished()) {
                continue;
            }
            LOG.warning("adopting " + kind.runner().noun() + " " + job.id() + " of tenant " + job.tenant() + " from "
                    + (orphan.owner() == null ? "a server restart" : "server " + orphan.owner() + " (its lease was released or expired)"));
            adopt(kind, job, policy);
        }
    }

    /**
     * Finishes, resumes or rolls back an adopted job on the executor: recovery waits for the tenant's writes (up to
     * {@code claimWaitSeconds}) and may delete a whole store copy, which must not hold up the lease renewal that runs
     * the sweep. Meanwhile the open job keeps the tenant's activations refused in the control plane.
     */
    private void adopt(Kind kind, IngestJob job, CorpusMigration.OnRestart policy) {
        String what = kind.runner().noun() + " " + job.id();
        Runnable recovery = () -> {
            try {
                kind.runner().recover(job, policy).ifPresentOrElse(started -> runAndAudit(kind, SYSTEM, started),
                        () -> ended(kind, SYSTEM, dataPlane.jobs().find(job.tenant(), job.id()).orElse(job)));
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "recovering " + what + " of tenant " + job.tenant() + " failed; " + kind.unchanged()
                        + " and the job stays adopted by this server until it restarts", e);
            }
        };
        try {
            stop.execute(executor, recovery);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "recovering " + what + " could not be scheduled; the job stays adopted by this server until it restarts", e);
        }
    }

    /** Runs a started migration and audits how it ended, also when an {@link Error} ended it (its job is closed then too). */
    private void runAndAudit(Kind kind, String actor, CorpusMigration.Started started) {
        IngestJob ended;
        try {
            ended = kind.runner().run(started);
        } catch (Error e) {
            IngestJob job = started.job();
            ended(kind, actor, dataPlane.jobs().find(job.tenant(), job.id()).orElse(job));
            throw e;
        }
        ended(kind, actor, ended);
    }

    private void ended(Kind kind, String actor, IngestJob job) {
        if (!job.finished()) {
            return; // stopped with the server, or could not be closed: the recovery that ends it audits the end
        }
        Map<String, Object> details = kind.details().apply(job);
        if (job.error() != null) {
            details.put("error", job.error());
        }
        audit(actor, job.tenant(), kind.endAction(), job.status() == JobStatus.SUCCEEDED ? "success" : "failure", details);
    }

    /**
     * Once requested, every migration run and recovery on this server ends at its next step boundary with its job left
     * open, and new starts are refused (503).
     */
    @Override
    public GracefulStop gracefulStop() {
        return stop;
    }

    private Kind kind(JobKind jobKind) {
        if (kinds == null) {
            synchronized (this) {
                if (kinds == null) {
                    Duration claimWait = Duration.ofSeconds(claimWaitSeconds);
                    Duration drain = Duration.ofSeconds(drainSeconds);
                    int embedBatchSize = IngestLimits.DEFAULT.embedBatchSize();
                    ReembedMigration reembed = new ReembedMigration(dataPlane.tenants(), dataPlane.registry(), dataPlane.jobs(),
                            dataPlane.ingestion().writeGate(), dataPlane.runtimes()::runtime, embedBatchSize, claimWait, drain, stop);
                    StoreRelocation relocation = new StoreRelocation(dataPlane.tenants(), dataPlane.registry(), dataPlane.jobs(),
                            dataPlane.ingestion().writeGate(), dataPlane.runtimes()::runtime, dataPlane.runtimes()::storeLocation, claimWait, drain,
                            embedBatchSize, stop);
                    kinds = Map.of(
                            JobKind.REEMBED, new Kind(reembed, "tenant.embedder.migrate", "tenant.embedder.migrated",
                                    CorpusMigrations::reembedDetails, "the tenant keeps serving its current embedder"),
                            JobKind.RELOCATE, new Kind(relocation, "tenant.store.relocate", "tenant.store.relocated",
                                    CorpusMigrations::relocationDetails, "the tenant keeps its current store"));
                }
            }
        }
        return kinds.get(jobKind);
    }

    private static Map<String, Object> reembedDetails(IngestJob job) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("job", job.id());
        details.put("from", String.valueOf(job.reembed().fromEmbedder()));
        details.put("to", job.reembed().toEmbedder());
        details.put("provider", job.reembed().targetEmbedder().provider());
        details.put("status", job.status().name());
        return details;
    }

    /** Providers only: a store's options may name hosts and credentials. */
    private static Map<String, Object> relocationDetails(IngestJob job) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("job", job.id());
        details.put("from", job.relocate().fromStore().provider());
        details.put("to", job.relocate().targetStore().provider());
        details.put("status", job.status().name());
        details.put("copied", job.succeeded() + job.skipped());
        details.put("total", job.total());
        return details;
    }

    private void audit(String actor, String tenantId, String action, String outcome, Map<String, Object> details) {
        try {
            audit.append(new AuditEvent(Instant.now(), actor, tenantId, action, tenantId, outcome, details));
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "audit entry " + action + " for tenant " + tenantId + " could not be written", e);
        }
    }
}
