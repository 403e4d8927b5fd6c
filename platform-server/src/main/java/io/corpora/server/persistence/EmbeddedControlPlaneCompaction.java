package io.corpora.server.persistence;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.enterprise.inject.spi.BeforeShutdown;
import jakarta.inject.Inject;
import java.lang.management.ManagementFactory;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;
import java.util.stream.Collectors;
import javax.management.JMException;
import javax.management.MBeanServer;
import javax.management.ObjectName;
import javax.sql.DataSource;
import org.eclipse.microprofile.config.inject.ConfigProperty;

/**
 * Compacts the embedded control plane once the application has stopped, unless {@code corpora.controlPlane.compactAtStop}
 * is false. With {@code WRITE_DELAY=0} H2 runs no background
 * writer, so the chunks its commits leave behind stay in the file while the server runs (docs/performance-log.md, "the
 * embedded control plane's file grows with every commit"), and the JVM's exit closes it without compacting: after all
 * of SciFact the file held 157 MB, 6 MB of it live. {@code SHUTDOWN COMPACT} writes the live data to a new file, which
 * then replaces the old one, so a clean stop leaves what the data needs. Only for a database no other process can open
 * ({@link ControlPlaneUrl#privateToThisProcess}): never PostgreSQL, never a shared H2.
 */
@ApplicationScoped
public class EmbeddedControlPlaneCompaction {

    /** Liberty's MBeans of its connection managers, one per data source (key {@code jndiName}). */
    private static final String CONNECTION_MANAGERS = "WebSphere:type=com.ibm.ws.jca.cm.mbean.ConnectionManagerMBean,*";

    private static final Logger LOG = Logger.getLogger(EmbeddedControlPlaneCompaction.class.getName());

    /** The embedded control plane to compact at stop; null for any other. Static: the stop event comes after this bean is gone. */
    private static volatile DataSource embedded;

    @Inject
    ControlPlaneLocation controlPlane;

    /**
     * On by default. {@code SHUTDOWN COMPACT} closes the database under Liberty's connection pool, which outlives the
     * application; the pool is emptied right after ({@link #purgeServerPool}), so an application started again in the
     * running server (a redeploy) opens the database anew.
     */
    @Inject
    @ConfigProperty(name = "corpora.controlPlane.compactAtStop", defaultValue = "true")
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
        purgeServerPool();
    }

    /**
     * Empties Liberty's pool of the control plane's data source: it belongs to the server and outlives the application,
     * and every connection in it now points at the database the compaction closed. A new connection opens the database
     * again, so an application started next in the same server (a redeploy) gets working ones.
     */
    private static void purgeServerPool() {
        MBeanServer server = ManagementFactory.getPlatformMBeanServer();
        try {
            Set<ObjectName> pools = server.queryNames(new ObjectName(CONNECTION_MANAGERS), null).stream()
                    .filter(name -> ControlPlane.DATA_SOURCE_JNDI.equals(name.getKeyProperty("jndiName")))
                    .collect(Collectors.toSet());
            if (pools.isEmpty()) {
                LOG.warning("No connection pool of " + ControlPlane.DATA_SOURCE_JNDI + " to empty after the compaction: an application"
                        + " started again in this server may be handed connections to the closed database");
            }
            for (ObjectName pool : pools) {
                server.invoke(pool, "purgePoolContents", new Object[] {"immediate"}, new String[] {String.class.getName()});
            }
        } catch (JMException | RuntimeException e) {
            LOG.log(Level.WARNING, "Could not empty the connection pool of " + ControlPlane.DATA_SOURCE_JNDI + " after the compaction: "
                    + e.getMessage(), e);
        }
    }

    /** The portable extension that runs {@link #compactNow} at {@link BeforeShutdown}, the container's last event. */
    public static final class Extension implements jakarta.enterprise.inject.spi.Extension {

        void atShutdown(@Observes BeforeShutdown event) {
            compactNow();
        }
    }
}
