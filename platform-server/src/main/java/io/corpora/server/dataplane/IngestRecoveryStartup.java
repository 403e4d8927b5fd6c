package io.corpora.server.dataplane;

import io.corpora.ingest.IngestRecovery;
import io.corpora.server.persistence.ControlPlaneStartup;
import jakarta.annotation.Priority;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.util.logging.Logger;

/**
 * Runs {@link IngestRecovery} once at boot, after the control plane is migrated and synced, then recovers interrupted
 * re-embed migrations ({@link ReembedMigrations#recover}).
 */
@ApplicationScoped
public class IngestRecoveryStartup {

    private static final Logger LOG = Logger.getLogger(IngestRecoveryStartup.class.getName());

    @Inject
    DataPlane dataPlane;

    @Inject
    ControlPlaneStartup controlPlane;

    @Inject
    ReembedMigrations migrations;

    void onStartup(@Observes @Priority(Interceptor.Priority.APPLICATION + 100) @Initialized(ApplicationScoped.class) Object event) {
        controlPlane.ensureMigrated();
        IngestRecovery.Report report;
        try {
            report = IngestRecovery.recover(dataPlane.tenants(), dataPlane.registry(), dataPlane.jobs(),
                    tenant -> dataPlane.runtime(tenant).store());
        } catch (RuntimeException e) {
            // Unfinished versions stay hidden by the isolation guard; the next restart tries again.
            LOG.log(java.util.logging.Level.SEVERE, "ingest recovery failed at boot", e);
            return;
        }
        if (report.jobsClosed() + report.versionsFailed() > 0 || !report.problems().isEmpty()) {
            LOG.warning("ingest recovery after restart: " + report);
        } else {
            LOG.info("ingest recovery: nothing was interrupted");
        }
        // Before requests flow: a resumed migration claims its tenant's writes here, synchronously.
        try {
            migrations.recover();
        } catch (RuntimeException e) {
            LOG.log(java.util.logging.Level.SEVERE, "re-embed migration recovery failed at boot; tenants keep their current embedder", e);
        }
    }
}
