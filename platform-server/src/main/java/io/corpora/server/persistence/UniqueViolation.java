package io.corpora.server.persistence;

import java.sql.SQLException;

/**
 * Recognises a unique-key violation behind a JPA failure: two requests inserting the same key at once, where the
 * "does it exist?" check before the insert could not see the other's uncommitted row. SQLSTATE 23505 on H2 and
 * PostgreSQL alike.
 */
final class UniqueViolation {

    private static final String UNIQUE_VIOLATION = "23505";

    private UniqueViolation() {}

    static boolean causedBy(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && UNIQUE_VIOLATION.equals(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
