package io.corpora.server.dataplane;

import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.Tenant;
import io.corpora.ingest.IngestLimits;
import io.corpora.ingest.ReembedMigration;
import jakarta.annotation.Resource;
import jakarta.enterprise.concurrent.ManagedExecutorService;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.inject.Inject;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Runs {@link ReembedMigration}s on the container's managed executor, audits their start and end, and at boot resumes
 * or rolls back the ones a restart interrupted ({@code corpora.reembed.onRestart}: {@code resume}, the default, or
 * {@code rollback}).
 */
@ApplicationScoped
public class ReembedMigrations {

    private static final Logger LOG = Logger.getLogger(ReembedMigrations.class.getName());
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

    /** How long the old generation outlives the switch, for queries that read the tenant just before it. */
    @Inject
    @ConfigProperty(name = "corpora.reembed.drainSeconds", defaultValue = "5")
    int drainSeconds;

    /** How long a start waits for the tenant's ingests in flight before refusing (409). */
    @Inject
    @ConfigProperty(name = "corpora.reembed.claimWaitSeconds", defaultValue = "30")
    int claimWaitSeconds;

    private volatile ReembedMigration migration;

    private ReembedMigration migration() {
        if (migration == null) {
            synchronized (this) {
                if (migration == null) {
                    migration = new ReembedMigration(dataPlane.tenants(), dataPlane.registry(), dataPlane.jobs(),
                            dataPlane.ingestion().writeGate(), dataPlane.runtimes()::runtime, IngestLimits.DEFAULT.embedBatchSize(),
                            Duration.ofSeconds(claimWaitSeconds), Duration.ofSeconds(drainSeconds));
                }
            }
        }
        return migration;
    }

    /** Starts re-embedding the tenant's corpus with {@code embedder} in the background; returns the QUEUED job. */
    public IngestJob start(String actor, Tenant tenant, PluginChoice embedder) {
        ReembedMigration.Started started;
        try {
            started = migration().start(tenant, embedder);
        } catch (RuntimeException e) {
            audit(actor, tenant.id(), "tenant.embedder.migrate", "failure", Map.of("provider", embedder.provider(), "error", String.valueOf(e.getMessage())));
            throw e;
        }
        IngestJob job = started.job();
        audit(actor, tenant.id(), "tenant.embedder.migrate", "success", details(job));
        submit(actor, started);
        return job;
    }

    /**
     * At boot, after ingest recovery, and on every lease sweep: each unfinished migration whose server holds no live lease
     * is adopted by this server (exactly one server wins each) and finished, resumed or rolled back. A migration running
     * on a live server is never touched.
     */
    public void recover(io.corpora.controlplane.ServerLeases leases, String self) {
        ReembedMigration.OnRestart policy = "rollback".equals(onRestart.trim().toLowerCase(Locale.ROOT))
                ? ReembedMigration.OnRestart.ROLL_BACK : ReembedMigration.OnRestart.RESUME;
        long now = System.currentTimeMillis();
        for (io.corpora.controlplane.ServerLeases.OrphanedJob orphan : leases.orphanedJobs(JobKind.REEMBED, now)) {
            if (!leases.adoptJob(orphan.jobId(), self, now)) {
                continue;
            }
            IngestJob job = dataPlane.jobs().find(orphan.tenant(), orphan.jobId()).orElse(null);
            if (job == null || job.finished()) {
                continue;
            }
            LOG.warning("adopting re-embed migration " + job.id() + " of tenant " + job.tenant() + " from "
                    + (orphan.owner() == null ? "a server restart" : "server " + orphan.owner() + " (lease expired)"));
            adopt(job, policy);
        }
    }

    /**
     * Finishes, resumes or rolls back an adopted job on the executor: recovery waits for the tenant's writes (up to
     * {@code claimWaitSeconds}) and may delete a whole store copy, which must not hold up the lease renewal that runs
     * the sweep. Meanwhile the open job keeps the tenant's activations refused in the control plane.
     */
    private void adopt(IngestJob job, ReembedMigration.OnRestart policy) {
        Runnable recovery = () -> {
            try {
                migration().recover(job, policy).ifPresentOrElse(started -> ended(SYSTEM, migration().run(started)),
                        () -> ended(SYSTEM, dataPlane.jobs().find(job.tenant(), job.id()).orElse(job)));
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "recovering re-embed migration " + job.id() + " of tenant " + job.tenant() + " failed; the tenant keeps serving its current embedder and"
                        + " the job stays adopted by this server until it restarts", e);
            }
        };
        try {
            executor.execute(recovery);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "recovering re-embed migration " + job.id() + " could not be scheduled; the job stays adopted by this server"
                    + " until it restarts", e);
        }
    }

    private void submit(String actor, ReembedMigration.Started started) {
        try {
            executor.execute(() -> ended(actor, migration().run(started)));
        } catch (RuntimeException e) {
            started.claim().release();
            dataPlane.jobs().fail(started.job().id(), "could not be scheduled: " + e);
            throw e;
        }
    }

    private void ended(String actor, IngestJob job) {
        Map<String, Object> details = details(job);
        if (job.error() != null) {
            details.put("error", job.error());
        }
        audit(actor, job.tenant(), "tenant.embedder.migrated", job.status() == JobStatus.SUCCEEDED ? "success" : "failure", details);
    }

    private static Map<String, Object> details(IngestJob job) {
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("job", job.id());
        details.put("from", String.valueOf(job.reembed().fromEmbedder()));
        details.put("to", job.reembed().toEmbedder());
        details.put("provider", job.reembed().targetEmbedder().provider());
        details.put("status", job.status().name());
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
