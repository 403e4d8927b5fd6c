package io.corpora.store.pgvector;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.util.List;
import java.util.Set;
import org.postgresql.ds.PGSimpleDataSource;

/** The {@code pgvector} store: chunks in a PostgreSQL table searched with pgvector's HNSW and full text. */
public final class PgVectorStoreProvider implements VectorStoreProvider {

    public static final String NAME = "pgvector";

    /** How long a caller waits for a connection of the built-in pool. */
    private static final long POOL_TIMEOUT_MILLIS = 30_000;

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public String description() {
        return "PostgreSQL + pgvector: HNSW vector search with iterative scans, JSONB metadata filters, full-text keyword leg";
    }

    @Override
    public List<ConfigOption> configOptions() {
        return PgVectorOptions.all();
    }

    /** Which database and which table (and columns) hold the chunks; search and index-build options are not. */
    @Override
    public Set<String> locationOptions() {
        return Set.of(PgVectorOptions.DATA_SOURCE, PgVectorOptions.JDBC_URL, PgVectorOptions.TABLE, PgVectorOptions.COLUMNS);
    }

    /** The settings (identifiers, ranges, one connection route) and the replicas' URLs, as {@link #create} checks them. */
    @Override
    public void validate(PluginConfig config) {
        settings(config);
        replicaUrls(config);
    }

    @Override
    public VectorStore create(PluginContext context, PluginConfig config) {
        return open(context, config);
    }

    /** As {@link #create}, typed, for callers that need {@link PgVectorStore#schemaStatements()}. */
    public PgVectorStore open(PluginContext context, PluginConfig config) {
        PgVectorSettings settings = settings(config);
        return new PgVectorStore(settings, connections(context, settings), replicas(context, settings, config), context.logger());
    }

    /** Validates the options beyond their declared types (identifiers, ranges, one connection route). */
    static PgVectorSettings settings(PluginConfig config) {
        try {
            return PgVectorSettings.from(config);
        } catch (IllegalArgumentException e) {
            throw new InvalidConfigException(NAME, List.of(e.getMessage()));
        }
    }

    /** The replicas' JDBC URLs, each checked. */
    private static List<String> replicaUrls(PluginConfig config) {
        List<String> urls = config.getList(PgVectorOptions.REPLICA_JDBC_URLS).stream().map(String::trim).filter(u -> !u.isEmpty()).toList();
        for (String url : urls) {
            if (!url.startsWith("jdbc:postgresql:")) {
                throw new InvalidConfigException(NAME, List.of("replicaJdbcUrls entries must start with jdbc:postgresql:, got: "
                        + PgVectorSettings.redacted(url)));
            }
        }
        return urls;
    }

    /** One small pool per replica URL, with the primary's credentials; none configured, no routing. */
    private static ReplicaRouting replicas(PluginContext context, PgVectorSettings settings, PluginConfig config) {
        List<String> urls = replicaUrls(config);
        if (urls.isEmpty()) {
            return ReplicaRouting.none();
        }
        int maxLag = config.getInt(PgVectorOptions.MAX_REPLICA_LAG_MILLIS); // bounds declared, checked before create
        List<ConnectionSource> sources = new java.util.ArrayList<>();
        for (String url : urls) {
            PGSimpleDataSource driver = new PGSimpleDataSource();
            driver.setURL(url);
            settings.user().ifPresent(driver::setUser);
            settings.password().ifPresent(driver::setPassword);
            driver.setApplicationName("corpora-store-pgvector-replica");
            driver.setConnectTimeout(2); // a dead replica costs a search 2 s at most, then it is skipped for a while
            sources.add(ConnectionSource.pooled(new ConnectionPool(driver, settings.poolSize(), POOL_TIMEOUT_MILLIS)));
        }
        List<String> names = urls.stream().map(u -> u.replaceAll("\\?.*", "")).toList();
        int consistencyWait = config.getInt(PgVectorOptions.CONSISTENCY_WAIT_MILLIS);
        return new ReplicaRouting(sources, names, maxLag, consistencyWait, System::currentTimeMillis, context.logger());
    }

    private static ConnectionSource connections(PluginContext context, PgVectorSettings settings) {
        if (settings.dataSourceJndiName().isPresent()) {
            String jndi = settings.dataSourceJndiName().get();
            return ConnectionSource.container(context.dataSource(jndi).orElseThrow(() -> new InvalidConfigException(NAME,
                    List.of("no DataSource is bound at JNDI name '" + jndi + "' (declare it in the server configuration)"))));
        }
        PGSimpleDataSource driver = new PGSimpleDataSource();
        driver.setURL(settings.jdbcUrl().orElseThrow());
        settings.user().ifPresent(driver::setUser);
        settings.password().ifPresent(driver::setPassword);
        driver.setApplicationName("corpora-store-pgvector");
        return ConnectionSource.pooled(new ConnectionPool(driver, settings.poolSize(), POOL_TIMEOUT_MILLIS));
    }
}
