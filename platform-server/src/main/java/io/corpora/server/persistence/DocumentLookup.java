package io.corpora.server.persistence;

import io.corpora.spi.Namespace;
import jakarta.persistence.EntityManager;
import jakarta.persistence.Query;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * One statement selecting given documents of a namespace, joined from a {@code VALUES} list of (id, tenant, partition)
 * rows: one primary-key (or covering-index) lookup per id, whatever the tenant holds. Not {@code WHERE tenant_id = ? AND
 * partition_id = ? AND document_id IN (…)}: H2 uses an IN list only on an index's first column, so it read every
 * document of the namespace per call (the lookup every retrieval makes); and PostgreSQL's generic plan of it (a
 * statement prepared on the server, after five runs) estimates a tenant at the average tenant's size and reads the
 * whole namespace of a large one. With the tenant in the joined rows neither database has a cheaper plan than the lookups.
 *
 * @param sql        with {@code ?} placeholders
 * @param parameters their values, in order
 */
record DocumentLookup(String sql, List<String> parameters) {

    /** The active version of each given document that has one: the isolation guard's lookup. */
    static DocumentLookup activeVersions(Namespace namespace, List<String> ids) {
        return of(namespace, ids, "d.document_id, d.active_version", " WHERE d.active_version > 0");
    }

    /** {@code columns} of the given documents ({@code d.} the documents table), then {@code rest} (a condition, an order). */
    static DocumentLookup of(Namespace namespace, List<String> ids, String columns, String rest) {
        StringBuilder sql = new StringBuilder("SELECT ").append(columns).append(" FROM (VALUES ");
        List<String> parameters = new ArrayList<>(ids.size() * 3);
        for (String id : ids) {
            sql.append(parameters.isEmpty() ? "(?, ?, ?)" : ", (?, ?, ?)");
            parameters.add(id);
            parameters.add(namespace.tenant());
            parameters.add(namespace.partitionKey());
        }
        sql.append(") AS wanted (document_id, tenant_id, partition_id) JOIN documents d ON d.tenant_id = wanted.tenant_id")
                .append(" AND d.partition_id = wanted.partition_id AND d.document_id = wanted.document_id").append(rest);
        return new DocumentLookup(sql.toString(), List.copyOf(parameters));
    }

    /** The statement as an EclipseLink native query, its values bound. */
    Query nativeQuery(EntityManager em) {
        Query query = em.createNativeQuery(sql);
        for (int i = 0; i < parameters.size(); i++) {
            query.setParameter(i + 1, parameters.get(i));
        }
        return query;
    }

    /** The statement on {@code connection}, its values bound; the caller closes it. */
    PreparedStatement prepare(Connection connection) throws SQLException {
        PreparedStatement statement = connection.prepareStatement(sql);
        try {
            for (int i = 0; i < parameters.size(); i++) {
                statement.setString(i + 1, parameters.get(i));
            }
            return statement;
        } catch (SQLException | RuntimeException e) {
            statement.close();
            throw e;
        }
    }
}
