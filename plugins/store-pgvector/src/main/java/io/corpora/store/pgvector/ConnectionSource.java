package io.corpora.store.pgvector;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/** Where the store's connections come from: a container-managed DataSource, or the built-in pool. */
interface ConnectionSource extends AutoCloseable {

    /** A connection the caller closes when done (which returns it to whichever pool lent it). */
    Connection open() throws SQLException;

    @Override
    void close();

    /** A container's pooled DataSource: the container owns it, so closing the store leaves it alone. */
    static ConnectionSource container(DataSource dataSource) {
        return new ConnectionSource() {
            @Override
            public Connection open() throws SQLException {
                return dataSource.getConnection();
            }

            @Override
            public void close() {}
        };
    }

    static ConnectionSource pooled(ConnectionPool pool) {
        return new ConnectionSource() {
            @Override
            public Connection open() throws SQLException {
                return pool.borrow();
            }

            @Override
            public void close() {
                pool.close();
            }
        };
    }
}
