package io.corpora.server.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.inject.Inject;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.logging.Level;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Compacts the embedded control plane once the application has stopped, when {@code corpora.controlPlane.compactAtStop}
 * is on. With {@code WRITE_DELAY=0} H2 runs no background
 * writer, so the chunks its commits leave behind stay in the file while the server runs (docs/performance-log.md, "the
 * embedded control plane's file grows with every commit"), and the JVM's exit closes it without compacting: after all
 * of SciFact the file held 157 MB, 6 MB of it live. {@code SHUTDOWN COMPACT} writes the live data to a new file, which
 * then replaces the old one, so a clean stop leaves what the data needs. Only for a database no other process can open
 * ({@link ControlPlaneUrl#privateToThisProcess}): never PostgreSQL, never a shared H2.
 */
@ApplicationScoped
public class EmbeddedControlPlaneCompaction {

    private static final Logger LOG = Logger.getLogger(EmbeddedControlPlaneCompaction.class.getName());

    /** The embedded control plane to compact at stop; null for any other. Static: the stop event comes after this bean is gone. */
    private static volatile DataSource embedded;

    @Inject
    ControlPlaneLocation controlPlane;

    /**
     * Off by default: {@code SHUTDOWN COMPACT} closes the database under Liberty's connection pool, which outlives the
     * application, so an application restarted in a running server (a redeploy, a changed WAR, Arquillian's deployments)
     * would be handed connections to a closed database and fail to start. Turn it on where the server only ever stops
     * whole. The compacted file's pages are LZF-compressed.
     */
    @Inject
    @ConfigProperty(name = "corpora.controlPlane.compactAtStop", defaultValue = "false")
    boolean compactAtStop;

    void atStart(@Observes @Initialized(ApplicationScoped.class) Object event) {
        embedded = compactAtStop && controlPlane.privateToThisProcess() ? controlPlane.dataSource() : null;
    }

    /**
     * Called by {@link Extension} once the container has destroyed every context, so after every bean's own stop (the
     * lease released, jobs and runtimes closed): nothing writes after it. Liberty fires {@code @Destroyed(ApplicationScoped)}
     * earlier, before those beans are destroyed.
     */
    static void compactNow() {
        DataSource target = embedded;
        embedded = null;
        if (target == null) {
            return;
        }
        long started = System.nanoTime();
        try (Connection connection = target.getConnection(); Statement statement = connection.createStatement()) {
            statement.execute("SHUTDOWN COMPACT");
            LOG.info("Embedded control plane compacted at stop in " + (System.nanoTime() - started) / 1_000_000 + " ms");
        } catch (SQLException e) {
            // Nothing is lost: the file is as the last commit left it, only larger.
            LOG.log(Level.WARNING, "Could not compact the embedded control plane at stop: " + e.getMessage(), e);
        }
    }

    /** The portable extension that runs {@link #compactNow} at {@link BeforeShutdown}, the container's last event. */
    public static final class Extension implements jakarta.enterprise.inject.spi.Extension {

        void atShutdown(@Observes BeforeShutdown event) {
            compactNow();
        }
    }
}
