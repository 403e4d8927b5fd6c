package io.corpora.store.pgvector;

import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.testkit.TestBackend;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.testcontainers.containers.PostgreSQLContainer;
import org.testcontainers.utility.DockerImageName;

/**
 * The real PostgreSQL + pgvector the tests run against: a Testcontainers {@code pgvector/pgvector} container when a Docker
 * engine answers, else {@code CORPORA_TEST_PG_URL} (set by CI after scripts/install-pgvector.sh; the project's machines run
 * no Docker engine), else none — then the calling test class is skipped with a one-line reason naming the command.
 */
final class TestDatabase {

    static final String URL_VARIABLE = "CORPORA_TEST_PG_URL";
    static final String IMAGE = "pgvector/pgvector:pg15";
    static final TestBackend BACKEND = TestBackend.choose("pgvector", IMAGE, URL_VARIABLE,
            "sudo scripts/install-pgvector.sh, then export the " + URL_VARIABLE + " line it prints");

    private static PostgreSQLContainer<?> container;
    private static String url;
    private static boolean reported;

    private TestDatabase() {}

    /** The JDBC URL (starting the container on first use), or a JUnit assumption failure (the test is reported skipped). */
    static synchronized String url() {
        if (!reported) {
            reported = true;
            BACKEND.report("store-pgvector");
        }
        if (url == null && BACKEND.kind() != TestBackend.Kind.NONE) {
            url = BACKEND.kind() == TestBackend.Kind.CONTAINER ? startContainer() : BACKEND.url();
        }
        BACKEND.assumeAvailable();
        return url;
    }

    static boolean configured() {
        return BACKEND.kind() != TestBackend.Kind.NONE;
    }

    private static String startContainer() {
        container = new PostgreSQLContainer<>(DockerImageName.parse(IMAGE).asCompatibleSubstituteFor("postgres"));
        container.start();
        Runtime.getRuntime().addShutdownHook(new Thread(container::stop));
        String jdbc = container.getJdbcUrl();
        return jdbc + (jdbc.contains("?") ? "&" : "?") + "user=" + container.getUsername() + "&password=" + container.getPassword();
    }

    static Connection connect() throws SQLException {
        return DriverManager.getConnection(url());
    }

    static void dropTable(String table) throws SQLException {
        try (Connection connection = connect(); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + SqlIdentifier.requireTable(table));
        }
    }

    /** What one row of an answer is read into. */
    @FunctionalInterface
    interface RowReader<T> {
        T read(ResultSet row) throws SQLException;
    }

    /** Runs one of the store's statements with its values bound and reads every row of the answer, in order. */
    static <T> List<T> rows(Connection connection, SqlFragment sql, RowReader<T> reader) throws SQLException {
        List<T> read = new ArrayList<>();
        try (PreparedStatement statement = connection.prepareStatement(sql.text())) {
            sql.bindTo(statement, 1);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    read.add(reader.read(rows));
                }
            }
        }
        return read;
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
