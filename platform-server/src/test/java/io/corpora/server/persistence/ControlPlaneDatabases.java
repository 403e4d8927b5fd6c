package io.corpora.server.persistence;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Map;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * The two databases the control plane runs on, for tests: a file-backed H2 in a temporary directory (exactly the
 * server's embedded URL options) and the PostgreSQL named by {@code CORPORA_TEST_PG_URL}, in a dedicated schema.
 */
final class ControlPlaneDatabases {

    static final String PG_URL_VARIABLE = "CORPORA_TEST_PG_URL";
    /** Never collides with the pgvector store's tables: those live in their own schema. */
    static final String PG_SCHEMA = "corpora_control_plane_test";
    /** The server's H2 options (server.xml's {@code corpora.db.url}; {@code ControlPlaneMigrationsTest} keeps the two equal). */
    static final String H2_OPTIONS = ";MODE=PostgreSQL;DATABASE_TO_LOWER=TRUE;DEFAULT_NULL_ORDERING=HIGH;LOCK_TIMEOUT=10000;WRITE_DELAY=0;QUERY_CACHE_SIZE=0";

    private ControlPlaneDatabases() {}

    static String h2Url(Path directory) {
        return "jdbc:h2:file:" + directory.resolve("control-plane").toAbsolutePath() + H2_OPTIONS;
    }

    static DataSource h2(Path directory) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(h2Url(directory));
        dataSource.setUser("corpora");
        dataSource.setPassword("");
        return dataSource;
    }

    static String pgUrl() {
        return System.getenv(PG_URL_VARIABLE);
    }

    static String pgSkipReason() {
        return PG_URL_VARIABLE + " is not set (e.g. jdbc:postgresql://127.0.0.1:5432/corpora_test?user=postgres): PostgreSQL run skipped";
    }

    /** The test PostgreSQL, with {@link #PG_SCHEMA} dropped so every run starts from an empty schema. */
    static DataSource freshPostgres() throws SQLException {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setURL(pgUrl());
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.execute("DROP SCHEMA IF EXISTS " + PG_SCHEMA + " CASCADE");
        }
        return dataSource;
    }

    /** JPA properties pointing the persistence unit at a database outside the container (resource-local transactions). */
    static Map<String, Object> jpaProperties(String url, String user, String password) {
        return Map.of(
                "jakarta.persistence.transactionType", "RESOURCE_LOCAL",
                "jakarta.persistence.jdbc.url", url,
                "jakarta.persistence.jdbc.user", user,
                "jakarta.persistence.jdbc.password", password,
                "jakarta.persistence.jtaDataSource", "",
                "eclipselink.logging.level", "WARNING",
                "eclipselink.session-event-listener", SqlRecorder.class.getName());
    }
}
