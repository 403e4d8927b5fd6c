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
 */
final class ReplicaRouting implements AutoCloseable {

    static final long DOWN_MILLIS = 5_000;
    private static final long LAG_SAMPLE_MILLIS = 1_000;
    /** 0 when the replica has replayed all it received (an idle primary is not lag); else the age of the last replay. */
    private static final String LAG_SQL = "SELECT CASE WHEN pg_last_wal_receive_lsn() = pg_last_wal_replay_lsn() THEN 0"
            + " ELSE COALESCE(EXTRACT(EPOCH FROM (now() - pg_last_xact_replay_timestamp())) * 1000, 0) END";

    private final List<Replica> replicas;
    private final long maxLagMillis;
    private final LongSupplier clock;
    private final Logger logger;
    private final AtomicInteger next = new AtomicInteger();

    ReplicaRouting(List<ConnectionSource> replicas, List<String> names, long maxLagMillis, LongSupplier clock, Logger logger) {
        this.replicas = java.util.stream.IntStream.range(0, replicas.size()).mapToObj(i -> new Replica(names.get(i), replicas.get(i))).toList();
        this.maxLagMillis = maxLagMillis;
        this.clock = clock;
        this.logger = logger;
    }

    static ReplicaRouting none() {
        return new ReplicaRouting(List.of(), List.of(), 0, System::currentTimeMillis, Logger.getLogger(ReplicaRouting.class.getName()));
    }

    boolean enabled() {
        return !replicas.isEmpty();
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
