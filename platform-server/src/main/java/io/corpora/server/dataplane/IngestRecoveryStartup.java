package io.corpora.server.dataplane;

import io.corpora.controlplane.ServerLeases;
import io.corpora.ingest.GracefulStop;
import io.corpora.ingest.IngestRecovery;
import io.corpora.server.cluster.LeaseKeeper;
import io.corpora.server.persistence.ControlPlaneStartup;
import io.corpora.server.persistence.JpaEvaluations;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.BeforeDestroyed;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import java.util.logging.Level;
import java.util.logging.Logger;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * At boot, after the control plane is migrated and synced: takes this server's lease, adopts and closes the work of
 * dead servers (its own predecessor included) with {@link IngestRecovery}, removes leftovers of superseded versions,
 * recovers orphaned re-embed migrations and store relocations ({@link CorpusMigrations#recover}) and fails evaluations a dead server left
 * open ({@link JpaEvaluations#failOrphaned}); then, while the server runs, repeats the adoption after every lease
 * renewal, so work of a server that died is closed by a survivor. When the application begins to stop, the jobs,
 * migrations and evaluations running here are stopped first and the lease released after them, so no other server
 * adopts a job still running here.
 */
@ApplicationScoped
public class IngestRecoveryStartup {

    private static final Logger LOG = Logger.getLogger(IngestRecoveryStartup.class.getName());

    @Inject
    DataPlane dataPlane;

    @Inject
    ControlPlaneStartup controlPlane;

    @Inject
    CorpusMigrations migrations;

    @Inject
    LeaseKeeper leaseKeeper;

    @Inject
    ServerLeases leases;

    @Inject
    JpaEvaluations evaluations;

    @Inject
    JobRunner jobRunner;

    @Inject
    EvaluationRunner evaluationRunner;

    /**
     * How long a clean stop waits for the work running here to reach a step boundary: the documents in flight of ingest
     * and rebuild jobs, one embedding batch or document of a migration.
     */
    @Inject
    @ConfigProperty(name = "corpora.stopWaitSeconds", defaultValue = "30")
    int stopWaitSeconds;

    void onStartup(@Observes @Priority(Interceptor.Priority.APPLICATION + 100) @Initialized(ApplicationScoped.class) Object event) {
        controlPlane.ensureMigrated();
        try {
            leaseKeeper.register();
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "could not take this server's lease; jobs it runs are adoptable by any other server", e);
        }
        IngestRecovery.Report report;
        try {
            report = IngestRecovery.recover(dataPlane.tenants(), dataPlane.registry(), dataPlane.jobs(), leases, leaseKeeper.self(),
                    System.currentTimeMillis(), tenant -> dataPlane.runtime(tenant).store());
            if (!report.idle()) {
                LOG.warning("ingest recovery at boot: " + report);
            } else {
                LOG.info("ingest recovery: nothing was interrupted");
            }
        } catch (RuntimeException e) {
            // Unfinished versions stay hidden by the isolation guard; the sweep tries again.
            LOG.log(Level.SEVERE, "ingest recovery failed at boot", e);
        }
        // Adopted migrations resume on the executor; until one claims its tenant's writes, the open job already refuses
        // the tenant's activations in the control plane.
        recoverMigrations();
        failOrphanedEvaluations();
        leaseKeeper.start(this::sweep);
    }

    /**
     * At the start of the application's stop, while the persistence unit is still open: the lease sweeps end (renewals
     * go on), ingest and rebuild jobs end after their documents in flight (the rest failed as interrupted), migrations
     * where they are (their jobs left open), evaluations before their next query (failed, saying so). Then the lease
     * is released so that another server adopts what is open at once — unless something still runs after
     * {@code corpora.stopWaitSeconds}, when the lease is left to expire instead.
     */
    void atStop(@Observes @BeforeDestroyed(ApplicationScoped.class) Object event) {
        leaseKeeper.stopSweeping(); // a leaving server adopts nothing more; its renewals go on while its work ends
        List<GracefulStop> stops = Stream.of(jobRunner, migrations, evaluationRunner).map(StoppableWork::gracefulStop).toList();
        stops.forEach(GracefulStop::request);
        boolean stopped;
        try {
            stopped = GracefulStop.awaitIdle(stops, Duration.ofSeconds(Math.max(0, stopWaitSeconds)));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = false;
        }
        if (!stopped) {
            LOG.warning("work still runs here " + stopWaitSeconds + " s after the stop began (corpora.stopWaitSeconds); its jobs are"
                    + " adopted once this server's lease expires");
        }
        leaseKeeper.stop(stopped);
    }

    /** One adoption round: what servers that died since left is closed here (another survivor may win some). */
    void sweep() {
        IngestRecovery.Report report = IngestRecovery.adoptOrphans(dataPlane.tenants(), dataPlane.registry(), dataPlane.jobs(), leases,
                leaseKeeper.self(), System.currentTimeMillis(), tenant -> dataPlane.runtime(tenant).store());
        if (!report.idle()) {
            LOG.warning("adopted the work of a dead server: " + report);
        }
        recoverMigrations();
        failOrphanedEvaluations();
    }

    private void failOrphanedEvaluations() {
        try {
            for (JpaEvaluations.Orphan orphan : evaluations.failOrphaned(leaseKeeper.self(), System.currentTimeMillis())) {
                LOG.warning("evaluation " + orphan.id() + " of tenant " + orphan.tenant() + " was left open by server " + orphan.owner()
                        + " (lease expired); failed");
            }
        } catch (RuntimeException e) {
            LOG.log(Level.SEVERE, "closing evaluations of dead servers failed; the next sweep retries", e);
        }
    }

    private void recoverMigrations() {
        migrations.recover(leases, leaseKeeper.self());
    }
}
