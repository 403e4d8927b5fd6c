package io.corpora.server.persistence;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.function.Function;

/**
 * Stored documents (active, nothing pending, no writer) written straight into {@code documents} in batches, as a grown
 * control plane holds them: far faster than ingesting them, for tests and benchmarks of queries over many documents.
 */
final class StoredDocumentRows {

    private static final int BATCH = 1000;

    private StoredDocumentRows() {}

    /** Documents {@code d<from>} to {@code d<to - 1>}, each in {@code tenantOf}'s default partition, with {@code text} (or none). */
    static void insert(Connection connection, int from, int to, Function<String, String> tenantOf, String text) {
        try (PreparedStatement insert = connection.prepareStatement("INSERT INTO documents (tenant_id, partition_id, document_id, status,"
                + " active_version, pending_version, last_version, chunk_count, bytes, metadata, body_text, created_at, updated_at, row_version)"
                + " VALUES (?, '_default', ?, 'ACTIVE', 1, 0, 1, 3, ?, '{}', ?, CURRENT_TIMESTAMP, CURRENT_TIMESTAMP, 1)")) {
            for (int i = from; i < to; i++) {
                String documentId = "d" + i;
                insert.setString(1, tenantOf.apply(documentId));
                insert.setString(2, documentId);
                insert.setLong(3, text == null ? 0 : text.length());
                insert.setString(4, text);
                insert.addBatch();
                if ((i - from) % BATCH == BATCH - 1) {
                    insert.executeBatch();
                }
            }
            insert.executeBatch();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
