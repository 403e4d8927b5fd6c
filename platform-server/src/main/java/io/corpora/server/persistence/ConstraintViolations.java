package io.corpora.server.persistence;

import java.sql.SQLException;
import java.util.Set;

/**
 * Recognises a constraint the database enforced behind a JPA failure, where a check before the write could not see
 * another transaction's uncommitted change: a unique key two requests inserted at once (SQLSTATE 23505 on H2 and
 * PostgreSQL), or a row whose parent another request deleted meanwhile (a foreign key: 23503 on PostgreSQL; H2 says
 * 23506 for a missing parent and 23503 for remaining children).
 */
final class ConstraintViolations {

    private static final String UNIQUE_VIOLATION = "23505";
    private static final Set<String> FOREIGN_KEY_VIOLATIONS = Set.of("23503", "23506");

    private ConstraintViolations() {}

    static boolean uniqueKey(Throwable failure) {
        return hasState(failure, Set.of(UNIQUE_VIOLATION));
    }

    static boolean foreignKey(Throwable failure) {
        return hasState(failure, FOREIGN_KEY_VIOLATIONS);
    }

    private static boolean hasState(Throwable failure, Set<String> states) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql && states.contains(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
