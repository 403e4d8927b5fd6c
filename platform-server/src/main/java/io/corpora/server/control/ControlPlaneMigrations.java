package io.corpora.server.control;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Applies the control-plane schema ({@code migrations/control-plane/}, packaged at
 * {@value #LOCATION}) with Flyway. The same SQL runs on the embedded H2 database and on PostgreSQL.
 */
public final class ControlPlaneMigrations {

    public static final String LOCATION = "classpath:db/migration/control-plane";
    public static final String HISTORY_TABLE = "control_plane_schema_history";

    private ControlPlaneMigrations() {}

    /** Migrates the data source's current schema. */
    public static MigrateResult migrate(DataSource dataSource, ClassLoader loader) {
        return configure(dataSource, loader, null).load().migrate();
    }

    /** Migrates (and creates if needed) {@code schema}, e.g. a dedicated schema for tests on a shared database. */
    public static MigrateResult migrate(DataSource dataSource, ClassLoader loader, String schema) {
        return configure(dataSource, loader, schema).load().migrate();
    }

    private static org.flywaydb.core.api.configuration.FluentConfiguration configure(DataSource dataSource, ClassLoader loader, String schema) {
        var config = Flyway.configure(loader)
                .dataSource(dataSource)
                .locations(LOCATION)
                .table(HISTORY_TABLE)
                .failOnMissingLocations(true)
                .validateMigrationNaming(true);
        if (schema != null) {
            config = config.schemas(schema).defaultSchema(schema).createSchemas(true);
        }
        return config;
    }
}
