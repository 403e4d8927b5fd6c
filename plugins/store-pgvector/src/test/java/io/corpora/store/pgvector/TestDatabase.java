package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The real PostgreSQL + pgvector the tests run against: {@code CORPORA_TEST_PG_URL} (set by CI after
 * scripts/install-pgvector.sh). Without it the calling test class is skipped with a one-line reason; there is
 * no Docker on the build machines, so Testcontainers is not attempted.
 */
final class TestDatabase {

    static final String URL_VARIABLE = "CORPORA_TEST_PG_URL";

    private TestDatabase() {}

    /** The JDBC URL, or a JUnit assumption failure (the test is reported skipped) when none is configured. */
    static String url() {
        String url = System.getenv(URL_VARIABLE);
        assumeTrue(url != null && !url.isBlank(), URL_VARIABLE + " is not set: no PostgreSQL with pgvector to test against "
                + "(run scripts/install-pgvector.sh and export the URL it prints)");
        return url;
    }

    static boolean configured() {
        String url = System.getenv(URL_VARIABLE);
        return url != null && !url.isBlank();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(url());
    }

    static void dropTable(String table) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + SqlIdentifier.requireTable(table));
        }
    }

    /** Store options for the test database with the given table; more options override or add. */
    static Map<String, String> options(String table, Map<String, String> more) {
        Map<String, String> options = new LinkedHashMap<>();
        options.put(PgVectorOptions.JDBC_URL, url());
        options.put(PgVectorOptions.TABLE, table);
        options.put(PgVectorOptions.ENSURE_SCHEMA, "true");
        options.put(PgVectorOptions.POOL_SIZE, "4");
        options.putAll(more);
        return options;
    }

    static PluginConfig config(Map<String, String> options) {
        return PluginConfig.validate(PgVectorStoreProvider.NAME, new PgVectorStoreProvider().configOptions(), options);
    }

    static PgVectorStore open(String table, Map<String, String> more) {
        return new PgVectorStoreProvider().open(context(), config(options(table, more)));
    }

    static PluginContext context() {
        return PluginContext.of(Path.of("target", "pgvector-test-data"), "io.corpora.store.pgvector.test");
    }
}
