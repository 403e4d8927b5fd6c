package io.corpora.server.dataplane;

import io.corpora.controlplane.AuditEvent;
import io.corpora.controlplane.AuditLog;
import io.corpora.controlplane.IngestJob;
import io.corpora.controlplane.JobKind;
import io.corpora.controlplane.JobStatus;
import io.corpora.controlplane.PluginChoice;
import io.corpora.controlplane.ServerLeases;
import io.corpora.controlplane.Tenant;
import io.corpora.ingest.ReembedMigration;
import io.corpora.ingest.StoreRelocation;
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
 * Runs {@link StoreRelocation}s on the container's managed executor, audits their start ({@code tenant.store.relocate})
 * and end ({@code tenant.store.relocated}), and adopts the ones whose server died or restarted (lease expiry), like the
 * re-embed migrations and with their settings ({@code corpora.reembed.onRestart}, {@code drainSeconds},
 * {@code claimWaitSeconds}).
 */
@ApplicationScoped
public class StoreRelocations {

    private static final Logger LOG = Logger.getLogger(StoreRelocations.class.getName());
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

    @Inject
    @ConfigProperty(name = "corpora.reembed.drainSeconds", defaultValue = "5")
    int drainSeconds;

    @Inject
    @ConfigProperty(name = "corpora.reembed.claimWaitSeconds", defaultValue = "30")
    int claimWaitSeconds;

    private volatile StoreRelocation relocation;

    private StoreRelocation relocation() {
        if (relocation == null) {
            synchronized (this) {
                if (relocation == null) {
                    relocation = new StoreRelocation(dataPlane.tenants(), dataPlane.registry(), dataPlane.jobs(),
                            dataPlane.ingestion().writeGate(), dataPlane.runtimes()::runtime, dataPlane.runtimes()::storeLocation,
                            Duration.ofSeconds(claimWaitSeconds), Duration.ofSeconds(drainSeconds));
                }
            }
        }
        return relocation;
    }

    /** Starts moving the tenant's corpus to {@code targetStore} in the background; returns the QUEUED job. */
    public IngestJob start(String actor, Tenant tenant, PluginChoice targetStore) {
        StoreRelocation.Started started;
        try {
            started = relocation().start(tenant, targetStore);
        } catch (RuntimeException e) {
            audit(actor, tenant.id(), "tenant.store.relocate", "failure", Map.of("provider", targetStore.provider(),
                    "error", String.valueOf(e.getMessage())));
            throw e;
        }
        audit(actor, tenant.id(), "tenant.store.relocate", "success", details(started.job()));
        submit(actor, started);
        return started.job();
    }

    /** Each unfinished relocation whose server holds no live lease is adopted here (one server wins) and finished, resumed or rolled back. */
    public void recover(ServerLeases leases, String self) {
        ReembedMigration.OnRestart policy = "rollback".equals(onRestart.trim().toLowerCase(Locale.ROOT))
                ? ReembedMigration.OnRestart.ROLL_BACK : ReembedMigration.OnRestart.RESUME;
        long now = System.currentTimeMillis();
        for (ServerLeases.OrphanedJob orphan : leases.orphanedJobs(JobKind.RELOCATE, now)) {
            if (!leases.adoptJob(orphan.jobId(), self, now)) {
                continue;
            }
            IngestJob job = dataPlane.jobs().find(orphan.tenant(), orphan.jobId()).orElse(null);
            if (job == null || job.finished()) {
                continue;
            }
            LOG.warning("adopting store relocation " + job.id() + " of tenant " + job.tenant() + " from "
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
                relocation().recover(job, policy).ifPresentOrElse(started -> ended(SYSTEM, relocation().run(started)),
                        () -> ended(SYSTEM, dataPlane.jobs().find(job.tenant(), job.id()).orElse(job)));
            } catch (RuntimeException e) {
                LOG.log(Level.SEVERE, "recovering store relocation " + job.id() + " of tenant " + job.tenant() + " failed; the tenant keeps its current store and"
                        + " the job stays adopted by this server until it restarts", e);
            }
        };
        try {
            executor.execute(recovery);
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "recovering store relocation " + job.id() + " could not be scheduled; the job stays adopted by this server"
                    + " until it restarts", e);
        }
    }

    private void submit(String actor, StoreRelocation.Started started) {
        try {
            executor.execute(() -> ended(actor, relocation().run(started)));
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
        audit(actor, job.tenant(), "tenant.store.relocated", job.status() == JobStatus.SUCCEEDED ? "success" : "failure", details);
    }

    /** Providers only: a store's options may name hosts and credentials. */
    private static Map<String, Object> details(IngestJob job) {
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
