package io.corpora.server.persistence;

import io.corpora.server.tenants.TenantsConfigService;
import jakarta.annotation.Priority;
import jakarta.annotation.Resource;
import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.context.Initialized;
import jakarta.enterprise.event.Observes;
import jakarta.inject.Inject;
import jakarta.interceptor.Interceptor;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Boots the control plane when the application starts, before other startup observers: applies the Flyway
 * migrations to the control-plane data source, then syncs tenants-config. A failed migration fails the deployment.
 * Code that needs the schema earlier calls {@link #ensureMigrated()}.
 */
@ApplicationScoped
public class ControlPlaneStartup {

    private static final Logger LOG = Logger.getLogger(ControlPlaneStartup.class.getName());

    @Resource(lookup = ControlPlane.DATA_SOURCE_JNDI)
    DataSource dataSource;

    @Inject
    TenantsConfigService tenantsConfig;

    private volatile boolean migrated;

    void onStartup(@Observes @Initialized(ApplicationScoped.class) @Priority(Interceptor.Priority.PLATFORM_BEFORE) Object event) {
        ensureMigrated();
        tenantsConfig.syncAtBoot();
    }

    /** Applies pending migrations once per application start; later calls return at once. */
    public synchronized void ensureMigrated() {
        if (migrated) {
            return;
        }
        MigrateResult result = ControlPlaneMigrations.migrate(dataSource, ControlPlaneStartup.class.getClassLoader());
        LOG.info("Control-plane schema at version " + ControlPlaneMigrations.versionAfter(result) + " (" + result.migrationsExecuted
                + " migrations applied now, database " + result.database + ")");
        migrated = true;
    }
}
