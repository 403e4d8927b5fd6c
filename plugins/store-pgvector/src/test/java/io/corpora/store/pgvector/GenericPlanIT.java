package io.corpora.store.pgvector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.SearchRequest;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Random;
import java.util.logging.Logger;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * Every search of a large tenant among many small ones runs on a plan made for its values. The driver prepares a
 * statement on the server from its fifth run, and PostgreSQL's plan cache may then switch to a generic plan, which
 * estimates {@code tenant = $1} at the average tenant: a few rows, so it reads the large tenant's rows through a B-tree
 * index — for a vector search, sorting them all instead of walking the HNSW index. Observed in the store's own session
 * ({@code pg_prepared_statements} counts the generic and custom plans of each statement the driver prepared): the
 * store borrows its one connection from a pool this test lends it through a container {@link DataSource}.
 */
class GenericPlanIT {

    private static final String TABLE = "it_generic_plan";
    private static final int SMALL_TENANTS = 1_000;
    private static final int LARGE_TENANT_ROWS = 3_000;
    private static final int SEARCHES = 25;

    @BeforeEach
    void freshTable() throws Exception {
        TestDatabase.url();
        TestDatabase.dropTable(TABLE);
    }

    @Test
    void searchesOfALargeTenantNeverRunOnAGenericPlan() throws Exception {
        PGSimpleDataSource driver = new PGSimpleDataSource();
        driver.setURL(TestDatabase.url());
        Random random = new Random(7);
        Namespace large = Namespace.of("large");
        try (ConnectionPool session = new ConnectionPool(driver, 1, 10_000)) {
            Map<String, String> options = new LinkedHashMap<>(Map.of(PgVectorOptions.DATA_SOURCE, "jdbc/store", PgVectorOptions.TABLE, TABLE,
                    PgVectorOptions.DIMENSION, "3", PgVectorOptions.ENSURE_SCHEMA, "true", PgVectorOptions.EXACT_SEARCH_MAX_ROWS, "100"));
            try (PgVectorStore store = new PgVectorStoreProvider().open(lending(session), TestDatabase.config(options))) {
                for (int t = 0; t < SMALL_TENANTS; t++) {
                    store.upsert(Namespace.of("small-" + t), rows(random, 3));
                }
                store.upsert(large, rows(random, LARGE_TENANT_ROWS));
                try (Connection connection = TestDatabase.connect(); Statement statement = connection.createStatement()) {
                    statement.execute("ANALYZE " + TABLE); // what autovacuum keeps current on a running database
                }
                for (int i = 0; i < SEARCHES; i++) {
                    float[] query = {random.nextFloat() - 0.5f, random.nextFloat() - 0.5f, random.nextFloat() - 0.5f};
                    assertEquals(10, store.search(large, SearchRequest.vector(query, 10, MetadataFilter.all(), null, null)).size());
                    assertEquals(1, store.search(large, SearchRequest.keyword("word" + i, 10, MetadataFilter.all(), null, null)).size());
                }
            }
            try (Connection same = session.borrow(); Statement statement = same.createStatement();
                 ResultSet plans = statement.executeQuery("SELECT statement, generic_plans, custom_plans FROM pg_prepared_statements"
                         + " WHERE statement LIKE '%candidates%' OR statement LIKE '%plainto_tsquery%'")) {
                int searches = 0;
                while (plans.next()) {
                    searches++;
                    String search = plans.getString(1).contains("candidates") ? "vector search" : "keyword search";
                    assertEquals(0, plans.getLong(2), "generic plans of the " + search + " (custom: " + plans.getLong(3) + ")");
                    assertTrue(plans.getLong(3) > 0, "custom plans of the " + search);
                }
                assertEquals(2, searches, "the vector and keyword searches, prepared on the server after their fifth run");
            }
        }
    }

    private static List<EmbeddedChunk> rows(Random random, int count) {
        List<EmbeddedChunk> rows = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            rows.add(new EmbeddedChunk(new Chunk("c" + i, "d" + i, 0, "text word" + i, List.of(), Map.of()),
                    new float[] {random.nextFloat() - 0.5f, random.nextFloat() - 0.5f, random.nextFloat() - 0.5f}));
        }
        return rows;
    }

    /** A plugin context whose container DataSource lends the pool's one connection. */
    private static PluginContext lending(ConnectionPool pool) {
        DataSource dataSource = (DataSource) Proxy.newProxyInstance(GenericPlanIT.class.getClassLoader(), new Class<?>[] {DataSource.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getConnection")) {
                        return pool.borrow();
                    }
                    throw new UnsupportedOperationException(method.getName());
                });
        return new PluginContext() {
            @Override
            public Path dataDirectory() {
                return Path.of("target");
            }

            @Override
            public Logger logger() {
                return Logger.getLogger(GenericPlanIT.class.getName());
            }

            @Override
            public Optional<DataSource> dataSource(String jndiName) {
                return jndiName.equals("jdbc/store") ? Optional.of(dataSource) : Optional.empty();
            }
        };
    }
}
