package io.corpora.store.pgvector;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.logging.Logger;

/**
 * Where searches go when the store has read replicas ({@code replicaJdbcUrls}): round robin over the replicas that
 * answer and whose replay lag is at most {@code maxReplicaLagMillis}; none such, the primary. Writes never come here.
 *
 * <p>Staleness: a search served by a replica may miss writes of the last {@code maxReplicaLagMillis} (the lag is
 * sampled at most once a second per replica, so the bound holds to within that second). A replica that refuses a
 * connection or breaks mid-search is skipped for {@link #DOWN_MILLIS}; the search is retried on the primary, so losing a
 * replica costs latency, not errors.
 *
 * <p>Read-your-writes: a search carrying a {@link LogPosition} goes only to a replica that has replayed past it
 * ({@code pg_last_wal_replay_lsn()}); none has within {@code consistencyWaitMillis}, the primary serves it.
 */
final class ReplicaRouting implements AutoCloseable {

    static final long DOWN_MILLIS = 5_000;
    private static final long LAG_SAMPLE_MILLIS = 1_000;
    /** 0 when the replica has replayed all it received (an idle primary is not lag); else the age of the last replay. */
    private static final String LAG_SQL = "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
            + " ELSE COALESCE(EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp())) * 1000, 0) END";

    private final List<Replica> replicas;
    private final long maxLagMillis;
    private final long consistencyWaitMillis;
    /** Searches with a token no replica had replayed in time, served by the primary (for tests and diagnostics). */
    private final java.util.concurrent.atomic.AtomicLong tokenFallbacks = new java.util.concurrent.atomic.AtomicLong();
    private final LongSupplier clock;
    private final Logger logger;
    private final AtomicInteger next = new AtomicInteger();

    private static final long REPLAY_POLL_MILLIS = 5;
    /** The replay position of a standby; a server that is not in recovery has applied everything it wrote. */
    private static final String REPLAYED_SQL = "SELECT CASE WHEN pg_is_in_recovery() THEN pg_last_wal_replay_lsn() >= ?::pg_lsn"
            + " ELSE pg_current_wal_lsn() >= ?::pg_lsn END";

    ReplicaRouting(List<ConnectionSource> replicas, List<String> names, long maxLagMillis, long consistencyWaitMillis, LongSupplier clock,
                   Logger logger) {
        this.replicas = java.util.stream.IntStream.range(0, replicas.size()).mapToObj(i -> new Replica(names.get(i), replicas.get(i))).toList();
        this.maxLagMillis = maxLagMillis;
        this.consistencyWaitMillis = consistencyWaitMillis;
        this.clock = clock;
        this.logger = logger;
    }

    static ReplicaRouting none() {
        return new ReplicaRouting(List.of(), List.of(), 0, 0, System::currentTimeMillis, Logger.getLogger(ReplicaRouting.class.getName()));
    }

    boolean enabled() {
        return !replicas.isEmpty();
    }

    /**
     * A connection to a usable replica that has replayed past {@code position}, polling for at most
     * {@code consistencyWaitMillis}; empty: the caller reads from the primary. A null position is {@link #open()}.
     */
    Optional<Routed> open(LogPosition position) {
        if (position == null) {
            return open();
        }
        long deadline = System.nanoTime() + consistencyWaitMillis * 1_000_000;
        while (true) {
            boolean anyUsable = false;
            for (int tried = 0; tried < replicas.size(); tried++) {
                Optional<Routed> routed = open();
                if (routed.isEmpty()) {
                    break; // none usable at all: no point waiting
                }
                anyUsable = true;
                if (replayed(routed.get(), position)) {
                    return routed;
                }
                closeQuietly(routed.get().connection());
            }
            if (!anyUsable || System.nanoTime() >= deadline) {
                tokenFallbacks.incrementAndGet();
                return Optional.empty();
            }
            try {
                Thread.sleep(REPLAY_POLL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                tokenFallbacks.incrementAndGet();
                return Optional.empty();
            }
        }
    }

    /** How many token-carrying searches the primary served because no replica had replayed in time. */
    long tokenFallbacks() {
        return tokenFallbacks.get();
    }

    private boolean replayed(Routed routed, LogPosition position) {
        try (java.sql.PreparedStatement statement = routed.connection().prepareStatement(REPLAYED_SQL)) {
            statement.setString(1, position.lsn());
            statement.setString(2, position.lsn());
            try (ResultSet rows = statement.executeQuery()) {
                return rows.next() && rows.getBoolean(1);
            }
        } catch (SQLException e) {
            markDown(routed.replica, e);
            return false;
        }
    }

    /** A connection to a usable replica, or empty: the caller reads from the primary. */
    Optional<Routed> open() {
        for (int tried = 0; tried < replicas.size(); tried++) {
            Replica replica = replicas.get(Math.floorMod(next.getAndIncrement(), replicas.size()));
            long now = clock.getAsLong();
            if (now < replica.downUntil) {
                continue;
            }
            Connection connection = null;
            try {
                connection = replica.source.open();
                if (now - replica.lagSampledAt >= LAG_SAMPLE_MILLIS) {
                    replica.lagMillis = lag(connection);
                    replica.lagSampledAt = now;
                }
                if (replica.lagMillis > maxLagMillis) {
                    connection.close();
                    continue; // too stale: the primary serves until it catches up
                }
                return Optional.of(new Routed(replica, connection));
            } catch (SQLException e) {
                closeQuietly(connection);
                markDown(replica, e);
            }
        }
        return Optional.empty();
    }

    /** The replica behind {@code routed} failed: skipped for {@link #DOWN_MILLIS}. */
    void failed(Routed routed, SQLException e) {
        markDown(routed.replica, e);
    }

    /** Connection-level failures (class 08, admin shutdown 57P, read-only conflict 40001 on a standby) mean: try the primary. */
    static boolean isReplicaFailure(SQLException e) {
        String state = e.getSQLState();
        return state == null || state.startsWith("08") || state.startsWith("57P") || "40001".equals(state);
    }

    /** Last sampled lag of each replica in milliseconds (-1 while down), for diagnostics. */
    List<String> describe() {
        long now = clock.getAsLong();
        return replicas.stream().map(r -> r.name + (now < r.downUntil ? " down" : " lag " + r.lagMillis + " ms")).toList();
    }

    private void markDown(Replica replica, SQLException e) {
        replica.downUntil = clock.getAsLong() + DOWN_MILLIS;
        logger.warning("pgvector replica " + replica.name + " unusable (" + e.getMessage() + " [SQLState " + e.getSQLState()
                + "]); searches use the primary for " + DOWN_MILLIS + " ms");
    }

    private static long lag(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement(); ResultSet rows = statement.executeQuery(LAG_SQL)) {
            rows.next();
            return Math.round(rows.getDouble(1));
        }
    }

    private static void closeQuietly(Connection connection) {
        if (connection != null) {
            try {
                connection.close();
            } catch (SQLException ignored) {
                // already broken
            }
        }
    }

    @Override
    public void close() {
        replicas.forEach(r -> r.source.close());
    }

    /** A replica connection and where it came from. */
    record Routed(Replica replica, Connection connection) {}

    static final class Replica {
        final String name;
        final ConnectionSource source;
        volatile long downUntil;
        volatile long lagMillis;
        volatile long lagSampledAt = Long.MIN_VALUE / 2;

        Replica(String name, ConnectionSource source) {
            this.name = name;
            this.source = source;
        }
    }
}
