package io.corpora.server.api;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.corpora.testkit.Poll;
import io.corpora.server.Roles;
import io.corpora.server.ServerClient;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.Assumptions;

/** Creates tenants through the admin API, empties the test database for pgvector tenants and waits on jobs, for the data-plane integration tests. */
public final class TenantFixtures {

    private final ServerClient client;
    private final String admin;

    public TenantFixtures(ServerClient client) {
        this.client = client;
        this.admin = client.token("ops", null, Roles.PLATFORM_ADMIN);
    }

    /** A tenant id unique to this run, so reruns against a kept server never share state. */
    public static String uniqueId(String prefix) {
        return prefix + "-" + UUID.randomUUID().toString().substring(0, 8);
    }

    /** Creates a tenant on the embedded defaults (Lucene store, ONNX embedder), optionally with partitions and the audience hook. */
    public void create(String id, List<String> partitions, boolean audienceHook) {
        Map<String, Object> definition = embeddedDefaults(id);
        Map<String, Object> access = new LinkedHashMap<>();
        access.put("partitions", partitions);
        if (audienceHook) {
            access.put("filterHook", Map.of("provider", "audience", "config", Map.of("key", "audience",
                    "templates", List.of("public", "user:{sub}", "group:{groups}"))));
        }
        definition.put("access", access);
        create(definition);
    }

    /**
     * A tenant definition whose pgvector store cannot be opened (its database URL names port 1, where nothing answers):
     * valid options, so the tenant is created, but every call that needs its store finds it will not start.
     */
    public static Map<String, Object> withUnopenableStore(String id) {
        return Map.of("id", id, "embedder", Map.of("provider", "onnx"), "store", Map.of("provider", "pgvector", "config",
                Map.of("jdbcUrl", UNREACHABLE_PG_URL)));
    }

    /** A PostgreSQL URL nothing answers (port 1). */
    public static final String UNREACHABLE_PG_URL = "jdbc:postgresql://127.0.0.1:1/nowhere?user=postgres&connectTimeout=2";

    /** A tenant definition on the embedded defaults (Lucene store, ONNX embedder), to add fields to before {@link #create(Map)}. */
    static Map<String, Object> embeddedDefaults(String id) {
        Map<String, Object> definition = new LinkedHashMap<>();
        definition.put("id", id);
        definition.put("displayName", "Test tenant " + id);
        definition.put("store", Map.of("provider", "lucene"));
        definition.put("embedder", Map.of("provider", "onnx"));
        definition.put("retrieval", Map.of("mode", "hybrid", "topK", 10));
        return definition;
    }

    void create(Map<String, Object> definition) {
        ServerClient.Response created = client.post("admin/v1/tenants", admin, definition);
        assertTrue(created.status() == 201 || created.status() == 200, "create " + definition.get("id") + ": " + created.status() + " " + created.body());
    }

    /** Polls a job until it finishes (deadline 2 minutes); returns its final JSON. */
    public JsonNode awaitJob(String location, String token) {
        return awaitJob(location, token, Duration.ofMinutes(2));
    }

    /** Polls a job ({@code api/v1/…} or {@code admin/v1/…} location) until it finishes; returns its final JSON. */
    public JsonNode awaitJob(String location, String token, Duration timeout) {
        String path = serverPath(location);
        return Poll.until("job " + location + " finished", timeout, () -> {
            JsonNode job = client.get(path, token).json();
            return finished(job) ? Optional.of(job) : Optional.empty();
        });
    }

    /** A job is finished once it left QUEUED and RUNNING. */
    public static boolean finished(JsonNode job) {
        String status = job.get("status").asText();
        return !status.equals("QUEUED") && !status.equals("RUNNING");
    }

    /**
     * The JDBC URL of the test PostgreSQL (pgvector) database, {@code CORPORA_TEST_PG_URL}, with {@code table} dropped so
     * that a pgvector tenant on it starts empty; skips the test when the variable is not set.
     */
    public static String pgvectorUrlWithoutTable(String table) throws SQLException {
        String url = System.getenv("CORPORA_TEST_PG_URL");
        Assumptions.assumeTrue(url != null && !url.isBlank(), "CORPORA_TEST_PG_URL names the PostgreSQL (pgvector) database");
        try (Connection connection = DriverManager.getConnection(url); Statement statement = connection.createStatement()) {
            statement.execute("DROP TABLE IF EXISTS " + table);
        }
        return url;
    }

    /** A Location header (absolute or not) as a path relative to the server root. */
    public static String serverPath(String location) {
        return location.replaceFirst("^https?://[^/]+", "").replaceFirst("^/", "");
    }
}
