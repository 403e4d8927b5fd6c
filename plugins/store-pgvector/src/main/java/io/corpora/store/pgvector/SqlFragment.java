package io.corpora.store.pgvector;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * SQL text with its bound parameters, built together so a placeholder and its value can never drift apart.
 * Only trusted text (keywords, validated identifiers, constants) is appended as SQL; everything else is a
 * parameter.
 */
final class SqlFragment {

    private final StringBuilder sql = new StringBuilder();
    private final List<Object> params = new ArrayList<>();

    SqlFragment sql(String trusted) {
        sql.append(trusted);
        return this;
    }

    /** Appends {@code ?} (or {@code ?::cast}) and binds the value. */
    SqlFragment bind(Object value) {
        sql.append('?');
        params.add(value);
        return this;
    }

    SqlFragment bind(Object value, String cast) {
        sql.append("?::").append(cast);
        params.add(value);
        return this;
    }

    SqlFragment append(SqlFragment other) {
        sql.append(other.sql);
        params.addAll(other.params);
        return this;
    }

    boolean isEmpty() {
        return sql.length() == 0;
    }

    String text() {
        return sql.toString();
    }

    /** Binds the parameters starting at index {@code first}; returns the next free index. */
    int bindTo(PreparedStatement statement, int first) throws SQLException {
        int index = first;
        for (Object param : params) {
            if (param == null) {
                statement.setNull(index++, java.sql.Types.NULL);
            } else {
                statement.setObject(index++, param);
            }
        }
        return index;
    }

    @Override
    public String toString() {
        return sql + " " + params;
    }
}
