package io.corpora.store.qdrant;

import io.corpora.spi.Identifiers;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * The parsed configuration of one Qdrant store: every check beyond the declared types and bounds, all problems
 * reported at once.
 */
record QdrantSettings(String host, int port, boolean tls, Optional<String> apiKey, Optional<Path> trustStore,
                      Optional<String> trustStorePassword, Duration timeout, CollectionNames collections, QdrantMetric metric,
                      int hnswM, int hnswEfConstruction, int efSearch, boolean exactSearch, int upsertBatchSize, boolean upsertWait,
                      boolean keywordSearch, Bm25Weights bm25, ShardRouting routing, int clientFilterMaxPoints,
                      Duration listSnapshotTtl) {

    static final int DEFAULT_GRPC_PORT = 6334;

    static QdrantSettings from(PluginConfig config) {
        List<String> problems = new ArrayList<>();
        URI url = parseUrl(config.requireString(QdrantOptions.URL), problems);
        CollectionNames collections = null;
        try {
            collections = new CollectionNames(config.requireString(QdrantOptions.COLLECTION));
        } catch (IllegalArgumentException e) {
            problems.add(QdrantOptions.COLLECTION + ": " + e.getMessage());
        }
        boolean tiered = config.getBoolean(QdrantOptions.TIERED_MULTITENANCY);
        Set<String> dedicated = new LinkedHashSet<>();
        for (String tenant : config.getList(QdrantOptions.DEDICATED_TENANTS)) {
            try {
                dedicated.add(Identifiers.requireNamespaceId("tenant", tenant));
            } catch (IllegalArgumentException e) {
                problems.add(QdrantOptions.DEDICATED_TENANTS + ": " + e.getMessage());
            }
        }
        if (!dedicated.isEmpty() && !tiered) {
            problems.add(QdrantOptions.DEDICATED_TENANTS + " needs " + QdrantOptions.TIERED_MULTITENANCY + "=true");
        }
        Optional<Path> trustStore = config.getPath(QdrantOptions.TRUST_STORE);
        if (trustStore.isPresent() && url != null && !"https".equalsIgnoreCase(url.getScheme())) {
            problems.add(QdrantOptions.TRUST_STORE + " is set but " + QdrantOptions.URL + " is not https");
        }
        if (!problems.isEmpty()) {
            throw new InvalidConfigException(config.provider(), problems);
        }
        Bm25Weights bm25 = new Bm25Weights(config.getDouble(QdrantOptions.BM25_K1), config.getDouble(QdrantOptions.BM25_B),
                config.getInt(QdrantOptions.BM25_AVG_LENGTH));
        return new QdrantSettings(url.getHost(), url.getPort() < 0 ? DEFAULT_GRPC_PORT : url.getPort(), "https".equalsIgnoreCase(url.getScheme()),
                config.getString(QdrantOptions.API_KEY).filter(s -> !s.isBlank()), trustStore,
                config.getString(QdrantOptions.TRUST_STORE_PASSWORD), config.getDuration(QdrantOptions.TIMEOUT), collections,
                QdrantMetric.parse(config.requireString(QdrantOptions.METRIC)), config.getInt(QdrantOptions.HNSW_M),
                config.getInt(QdrantOptions.HNSW_EF_CONSTRUCTION), config.getInt(QdrantOptions.EF_SEARCH),
                config.getBoolean(QdrantOptions.EXACT_SEARCH), config.getInt(QdrantOptions.UPSERT_BATCH_SIZE),
                config.getBoolean(QdrantOptions.UPSERT_WAIT), config.getBoolean(QdrantOptions.KEYWORD_SEARCH), bm25,
                tiered ? ShardRouting.tiered(dedicated) : ShardRouting.none(), config.getInt(QdrantOptions.CLIENT_FILTER_MAX_POINTS),
                config.getDuration(QdrantOptions.LIST_SNAPSHOT_TTL));
    }

    /** {@code http://host[:port]} or {@code https://host[:port]}, nothing else: no user info, path, query or fragment. */
    static URI parseUrl(String text, List<String> problems) {
        URI url;
        try {
            url = new URI(text.trim());
        } catch (URISyntaxException e) {
            problems.add(QdrantOptions.URL + " is not a URL: " + e.getMessage());
            return null;
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("http") && !scheme.equals("https")) {
            problems.add(QdrantOptions.URL + " must be http://host:port or https://host:port (Qdrant's gRPC port), got '" + text + "'");
            return null;
        }
        if (url.getHost() == null || url.getRawUserInfo() != null || (url.getRawPath() != null && !url.getRawPath().isEmpty()
                && !url.getRawPath().equals("/")) || url.getRawQuery() != null || url.getRawFragment() != null) {
            problems.add(QdrantOptions.URL + " must name only a scheme, a host and a port, got '" + text + "'");
            return null;
        }
        return url;
    }

    /** Where the store connects, for messages: never the API key. */
    String endpoint() {
        return (tls ? "https://" : "http://") + host + ":" + port;
    }
}
