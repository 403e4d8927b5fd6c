package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Set;
import java.util.TreeSet;
import javax.sql.DataSource;
import org.flywaydb.core.api.output.MigrateResult;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The control-plane migrations on both supported databases: they apply, are idempotent, and enforce their constraints. */
class ControlPlaneMigrationsTest {

    private static final Set<String> TABLES = Set.of("tenants", "documents", "ingest_jobs", "ingest_job_outcomes", "audit_log", "evaluations",
            "tenant_usage");

    @TempDir
    Path dataDir;

    @Test
    void migratesAFileBackedH2AndIsIdempotentAcrossRestarts() throws Exception {
        DataSource h2 = ControlPlaneDatabases.h2(dataDir);
        MigrateResult first = ControlPlaneMigrations.migrate(h2, getClass().getClassLoader());
        assertTrue(first.migrationsExecuted >= 1, "no migration executed");
        assertTrue(tables(h2, null).containsAll(TABLES), tables(h2, null).toString());
        assertConstraintsHold(h2, "");

        // A restart on the same files finds the schema current.
        MigrateResult second = ControlPlaneMigrations.migrate(ControlPlaneDatabases.h2(dataDir), getClass().getClassLoader());
        assertEquals(0, second.migrationsExecuted);
        assertTrue(dataDir.resolve("control-plane.mv.db").toFile().isFile(), "H2 is file-backed under the data directory");
    }

    @Test
    void migratesPostgresInADedicatedSchema() throws Exception {
        Assumptions.assumeTrue(ControlPlaneDatabases.pgUrl() != null, ControlPlaneDatabases.pgSkipReason());
        DataSource pg = ControlPlaneDatabases.freshPostgres();
        String schema = ControlPlaneDatabases.PG_SCHEMA;
        MigrateResult first = ControlPlaneMigrations.migrate(pg, getClass().getClassLoader(), schema);
        assertTrue(first.migrationsExecuted >= 1, "no migration executed");
        assertTrue(tables(pg, schema).containsAll(TABLES), tables(pg, schema).toString());
        assertConstraintsHold(pg, schema + ".");
        assertEquals(0, ControlPlaneMigrations.migrate(pg, getClass().getClassLoader(), schema).migrationsExecuted);
    }

    /** Tests and benchmarks open H2 as the server does: its options decide how commits are written and statements planned. */
    @Test
    void testsOpenH2WithTheServersOptions() throws Exception {
        String serverXml = java.nio.file.Files.readString(Path.of("src/main/liberty/config/server.xml"));
        java.util.regex.Matcher url = java.util.regex.Pattern.compile("name=\"corpora.db.url\" defaultValue=\"jdbc:h2:file:[^;\"]*([^\"]*)\"")
                .matcher(serverXml);
        assertTrue(url.find(), "server.xml defines corpora.db.url on H2");
        assertEquals(url.group(1), ControlPlaneDatabases.H2_OPTIONS);
    }

    /** The checks the JPA layer relies on are in the schema, not only in Java. */
    private static void assertConstraintsHold(DataSource dataSource, String prefix) throws SQLException {
        try (Connection c = dataSource.getConnection(); Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO " + prefix + "tenants (id, display_name, state, store_provider, store_config, embedder_provider,"
                    + " embedder_config, partitions, retrieval_mode, retrieval_top_k, retrieval_rerank, quota_max_documents, quota_max_chunks,"
                    + " quota_max_bytes, quota_requests_per_minute, quota_ingests_per_minute, created_at, updated_at, revision)"
                    + " VALUES ('acme', 'ACME', 'ACTIVE', 'lucene', '{}', 'onnx', '{}', '[]', 'hybrid', 5, FALSE, 0, 0, 0, 0, 0,"
                    + " CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)");
            assertThrows(SQLException.class, () -> s.executeUpdate("UPDATE " + prefix + "tenants SET state = 'GONE' WHERE id = 'acme'"),
                    "state is constrained to the TenantState values");
            assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO " + prefix + "documents (tenant_id, partition_id, document_id,"
                    + " status, active_version, pending_version, last_version, chunk_count, bytes, metadata, created_at, updated_at, row_version)"
                    + " VALUES ('nobody', '_default', 'd1', 'ACTIVE', 1, 0, 1, 1, 1, '{}', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)"),
                    "documents belong to an existing tenant");
            s.executeUpdate("INSERT INTO " + prefix + "documents (tenant_id, partition_id, document_id, status, active_version, pending_version,"
                    + " last_version, chunk_count, bytes, metadata, body_text, created_at, updated_at, row_version)"
                    + " VALUES ('acme', '_default', 'd1', 'ACTIVE', 1, 0, 1, 1, 1, '{}', '" + "x".repeat(2_000_000) + "', CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)");
            try (ResultSet rs = s.executeQuery("SELECT body_text FROM " + prefix + "documents WHERE document_id = 'd1'")) {
                assertTrue(rs.next());
                assertEquals(2_000_000, rs.getString(1).length(), "document text is not length-limited");
            }
        }
    }

    private static Set<String> tables(DataSource dataSource, String schema) throws SQLException {
        Set<String> names = new TreeSet<>();
        try (Connection c = dataSource.getConnection()) {
            DatabaseMetaData meta = c.getMetaData();
            try (ResultSet rs = meta.getTables(null, schema, "%", new String[] {"TABLE"})) {
                while (rs.next()) {
                    names.add(rs.getString("TABLE_NAME").toLowerCase(java.util.Locale.ROOT));
                }
            }
        }
        return names;
    }
}
