package io.corpora.server.persistence;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.output.MigrateResult;

/**
 * Applies the control-plane schema ({@code migrations/control-plane/}, packaged at
 * {@value #LOCATION}) with Flyway. The same SQL runs on the embedded H2 database and on PostgreSQL.
 * The empty {@code flyway.location} file in that directory is how Flyway finds a class-path location on
 * Open Liberty (WebSphere class loaders do not list directories); the build also places it in
 * {@code db/callback}, the location Flyway always probes for callbacks (there are none).
 */
public final class ControlPlaneMigrations {

    public static final String LOCATION = "classpath:db/migration/control-plane";
    public static final String HISTORY_TABLE = "control_plane_schema_history";

    private ControlPlaneMigrations() {}

    /** Migrates the data source's current schema. */
    public static MigrateResult migrate(DataSource dataSource, ClassLoader loader) {
        return load(configure(dataSource, loader, null)).migrate();
    }

    /** Migrates (and creates if needed) {@code schema}, e.g. a dedicated schema for tests on a shared database. */
    public static MigrateResult migrate(DataSource dataSource, ClassLoader loader, String schema) {
        return load(configure(dataSource, loader, schema)).migrate();
    }

    private static Flyway load(org.flywaydb.core.api.configuration.FluentConfiguration config) {
        return config.load();
    }

    /** The schema version after {@code result}, also when nothing had to be applied. */
    public static String versionAfter(MigrateResult result) {
        return result.targetSchemaVersion != null ? result.targetSchemaVersion : result.initialSchemaVersion;
    }

    private static org.flywaydb.core.api.configuration.FluentConfiguration configure(DataSource dataSource, ClassLoader loader, String schema) {
        var config = Flyway.configure(loader)
                .dataSource(dataSource)
                .locations(LOCATION)
                .callbackLocations(LOCATION)
                .table(HISTORY_TABLE)
                .failOnMissingLocations(true)
                .validateMigrationNaming(true);
        if (schema != null) {
            config = config.schemas(schema).defaultSchema(schema).createSchemas(true);
        }
        return config;
    }
}
