package io.corpora.store.pgvector;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;

/**
 * A small bounded pool over a pool-less {@link DataSource} (the driver's own), for the CLI and tests where no
 * container-managed pool exists. At most {@code size} connections are open; a borrower waits up to the
 * timeout for one. Returned connections are reset (rolled back, autocommit on) and reused; a connection
 * found broken is discarded. Handed out as a proxy whose {@code close()} returns it to the pool.
 */
final class ConnectionPool implements AutoCloseable {

    private final DataSource driver;
    private final Semaphore permits;
    private final long timeoutMillis;
    private final Deque<Connection> idle = new ArrayDeque<>();
    private volatile boolean closed;

    ConnectionPool(DataSource driver, int size, long timeoutMillis) {
        if (size < 1) {
            throw new IllegalArgumentException("pool size must be >= 1, got " + size);
        }
        this.driver = driver;
        this.permits = new Semaphore(size, true);
        this.timeoutMillis = timeoutMillis;
    }

    Connection borrow() throws SQLException {
        if (closed) {
            throw new SQLException("connection pool is closed");
        }
        try {
            if (!permits.tryAcquire(timeoutMillis, TimeUnit.MILLISECONDS)) {
                throw new SQLException("no database connection free within " + timeoutMillis + " ms (pool size exhausted)");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new SQLException("interrupted while waiting for a database connection", e);
        }
        try {
            Connection physical = takeIdle();
            while (physical != null && !physical.isValid(2)) {
                closeQuietly(physical);
                physical = takeIdle();
            }
            if (physical == null) {
                physical = driver.getConnection();
            }
            return wrap(physical);
        } catch (SQLException | RuntimeException e) {
            permits.release();
            throw e;
        }
    }

    private synchronized Connection takeIdle() {
        return idle.pollFirst();
    }

    private void giveBack(Connection physical) {
        try {
            if (!physical.getAutoCommit()) {
                physical.rollback();
                physical.setAutoCommit(true);
            }
            boolean keep;
            synchronized (this) {
                keep = !closed;
                if (keep) {
                    idle.addFirst(physical);
                }
            }
            if (!keep) {
                closeQuietly(physical);
            }
        } catch (SQLException e) {
            closeQuietly(physical);
        } finally {
            permits.release();
        }
    }

    private Connection wrap(Connection physical) {
        InvocationHandler handler = new InvocationHandler() {
            private boolean returned;

            @Override
            public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
                switch (method.getName()) {
                    case "close" -> {
                        if (!returned) {
                            returned = true;
                            giveBack(physical);
                        }
                        return null;
                    }
                    case "isClosed" -> {
                        return returned || physical.isClosed();
                    }
                    default -> {
                        if (returned) {
                            throw new SQLException("connection already returned to the pool");
                        }
                        try {
                            return method.invoke(physical, args);
                        } catch (InvocationTargetException e) {
                            throw e.getCause();
                        }
                    }
                }
            }
        };
        return (Connection) Proxy.newProxyInstance(ConnectionPool.class.getClassLoader(), new Class<?>[] {Connection.class}, handler);
    }

    private static void closeQuietly(Connection connection) {
        try {
            connection.close();
        } catch (SQLException ignored) {
            // already broken; nothing to release
        }
    }

    @Override
    public void close() {
        closed = true;
        synchronized (this) {
            idle.forEach(ConnectionPool::closeQuietly);
            idle.clear();
        }
    }
}
