package io.corpora.cli.bench;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The engine under Corpora's pgvector store, queried directly with plain JDBC: one connection per concurrent client, each
 * given the store's HNSW session settings once, then {@value #SQL} per query (the ids and texts are read, as any caller
 * needs them back) — or, at a breadth above the top 10, {@value #SQL_AT_BREADTH}: the index scan explores that many
 * rows and the nearest 10 of them are kept, as Corpora's store does.
 */
final class RawPgVector implements Systems.Search {

    static final String SQL = "SELECT chunk_id, text FROM %s WHERE tenant = ? ORDER BY embedding <=> ?::vector LIMIT " + Systems.TOP_K;
    static final String SQL_AT_BREADTH = "WITH explored AS MATERIALIZED (SELECT chunk_id, text, embedding <=> ?::vector AS distance FROM %s"
            + " WHERE tenant = ? ORDER BY distance LIMIT %d) SELECT chunk_id, text FROM explored ORDER BY distance LIMIT " + Systems.TOP_K;

    private record Session(Connection connection, PreparedStatement query) {}

    private final String jdbcUrl;
    private final String sql;
    private final int tenantParameter;
    private final int vectorParameter;
    private final String tenant;
    private final Map<String, String> settings;
    private final List<String> queryVectors;
    private final Queue<Session> opened = new ConcurrentLinkedQueue<>();
    /** Sessions not in use: a query borrows one (or opens one), so connections stay as many as concurrent clients. */
    private final Queue<Session> idle = new ConcurrentLinkedQueue<>();

    /**
     * @param settings PostgreSQL settings (name to value) every connection gets for its whole session
     * @param breadth  rows the index scan explores: {@link Systems#TOP_K}, or more to choose the top among
     */
    RawPgVector(String jdbcUrl, String table, String tenant, Map<String, String> settings, List<float[]> queryVectors, int breadth) {
        this.jdbcUrl = jdbcUrl;
        boolean atBreadth = breadth > Systems.TOP_K;
        this.sql = atBreadth ? String.format(SQL_AT_BREADTH, table, breadth) : String.format(SQL, table);
        this.tenantParameter = atBreadth ? 2 : 1;
        this.vectorParameter = atBreadth ? 1 : 2;
        this.tenant = tenant;
        this.settings = Map.copyOf(settings);
        this.queryVectors = queryVectors.stream().map(RawPgVector::literal).toList();
    }

    /** pgvector's text form of a vector, {@code [x,y,...]}, made once per query so no query pays for it. */
    static String literal(float[] vector) {
        StringBuilder text = new StringBuilder(vector.length * 12).append('[');
        for (int i = 0; i < vector.length; i++) {
            text.append(i == 0 ? "" : ",").append(vector[i]);
        }
        return text.append(']').toString();
    }

    private Session open() {
        try {
            Connection connection = PgVectorFleet.connect(jdbcUrl);
            try (PreparedStatement set = connection.prepareStatement("SELECT set_config(?, ?, false)")) {
                for (Map.Entry<String, String> setting : settings.entrySet()) {
                    set.setString(1, setting.getKey());
                    set.setString(2, setting.getValue());
                    set.executeQuery().close();
                }
            }
            Session opened = new Session(connection, connection.prepareStatement(sql));
            this.opened.add(opened);
            return opened;
        } catch (SQLException e) {
            throw new IllegalStateException("raw pgvector: cannot connect to " + PgVectorFleet.redacted(jdbcUrl), e);
        }
    }

    @Override
    public List<String> top(int query, io.corpora.spi.MetadataFilter filter) {
        Session session = idle.poll();
        if (session == null) {
            session = open();
        }
        PreparedStatement statement = session.query();
        try {
            statement.setString(tenantParameter, tenant);
            statement.setString(vectorParameter, queryVectors.get(query % queryVectors.size()));
            List<String> ids = new ArrayList<>(Systems.TOP_K);
            try (ResultSet rows = statement.executeQuery()) {
                while (rows.next()) {
                    rows.getString(2);
                    ids.add(rows.getString(1));
                }
            }
            idle.add(session);
            return ids;
        } catch (SQLException e) {
            throw new IllegalStateException("raw pgvector query failed: " + e.getMessage(), e);
        }
    }

    @Override
    public void close() {
        for (Session s; (s = opened.poll()) != null; ) {
            try {
                s.connection().close();
            } catch (SQLException ignored) {
                // closing after the measurement: nothing left to save
            }
        }
    }
}
