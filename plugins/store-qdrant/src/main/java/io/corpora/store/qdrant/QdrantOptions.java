package io.corpora.store.qdrant;

import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import java.util.List;

/**
 * The declared options of the {@code qdrant} store provider. Knobs every store has are spelled alike: {@code metric},
 * {@code hnsw.m}, {@code hnsw.efConstruction}, {@code hnsw.efSearch} (their pre-1.3 spellings {@code hnswM},
 * {@code hnswEfConstruction}, {@code efSearch} are aliases), {@code upsertBatchSize}, {@code bm25.k1} and {@code bm25.b}.
 */
final class QdrantOptions {

    static final String URL = "url";
    static final String API_KEY = "apiKey";
    static final String TRUST_STORE = "trustStore";
    static final String TRUST_STORE_PASSWORD = "trustStorePassword";
    static final String TIMEOUT = "timeout";
    static final String COLLECTION = "collection";
    static final String METRIC = "metric";
    static final String HNSW_M = "hnsw.m";
    static final String HNSW_EF_CONSTRUCTION = "hnsw.efConstruction";
    static final String EF_SEARCH = "hnsw.efSearch";
    static final String EXACT_SEARCH = "exactSearch";
    static final String UPSERT_BATCH_SIZE = "upsertBatchSize";
    static final String UPSERT_WAIT = "upsertWait";
    static final String KEYWORD_SEARCH = "keywordSearch";
    static final String BM25_K1 = "bm25.k1";
    static final String BM25_B = "bm25.b";
    static final String BM25_AVG_LENGTH = "bm25.avgLength";
    static final String TIERED_MULTITENANCY = "tieredMultitenancy";
    static final String DEDICATED_TENANTS = "dedicatedTenants";
    static final String CLIENT_FILTER_MAX_POINTS = "clientFilterMaxPoints";
    static final String LIST_SNAPSHOT_TTL = "listSnapshotTtl";

    private QdrantOptions() {}

    static List<ConfigOption> all() {
        return List.of(
                ConfigOption.builder(URL, ConfigType.STRING).required()
                        .description("Qdrant's gRPC endpoint: http://host:6334, or https://host:6334 for TLS (port defaults to 6334)").build(),
                ConfigOption.builder(API_KEY, ConfigType.STRING).secret()
                        .description("Qdrant API key (sent as the api-key header); reference it by a config key").build(),
                ConfigOption.builder(TRUST_STORE, ConfigType.PATH)
                        .description("PKCS12 or JKS trust store for an https URL whose certificate the JDK does not trust").build(),
                ConfigOption.builder(TRUST_STORE_PASSWORD, ConfigType.STRING).secret()
                        .description("password of the trust store").build(),
                ConfigOption.builder(TIMEOUT, ConfigType.DURATION).defaultValue("10s").minimum("1ms").maximum("10m")
                        .description("deadline of every gRPC call").build(),
                ConfigOption.builder(COLLECTION, ConfigType.STRING).defaultValue("corpora")
                        .description("prefix of the shared collections, one per vector width (<prefix>_d<width>); "
                                + "[a-z][a-z0-9_-]{0,47}").build(),
                ConfigOption.builder(METRIC, ConfigType.ENUM).defaultValue("cosine").allowedValues("cosine", "l2", "inner")
                        .description("Qdrant distance: Cosine, Euclid or Dot; scores follow io.corpora.spi.VectorSimilarity. "
                                + "Fixed per collection once created (checked when a collection is first used)").build(),
                ConfigOption.builder(HNSW_M, ConfigType.INT).defaultValue(16).minimum(2).maximum(128).aliases("hnswM")
                        .description("HNSW links per node of each tenant's graph (Qdrant payload_m; the global graph is off, m=0)").build(),
                ConfigOption.builder(HNSW_EF_CONSTRUCTION, ConfigType.INT).defaultValue(100).minimum(4).maximum(4096).aliases("hnswEfConstruction")
                        .description("HNSW ef_construct of created collections").build(),
                ConfigOption.builder(EF_SEARCH, ConfigType.INT).defaultValue(128).minimum(1).maximum(10000).aliases("efSearch")
                        .description("HNSW hnsw_ef per query, raised to the query's candidate count").build(),
                ConfigOption.builder(EXACT_SEARCH, ConfigType.BOOLEAN).defaultValue(false)
                        .description("search without the HNSW graph (exact, full recall, linear cost)").build(),
                ConfigOption.builder(UPSERT_BATCH_SIZE, ConfigType.INT).defaultValue(256).minimum(1).maximum(10000)
                        .description("points per upsert request").build(),
                ConfigOption.builder(UPSERT_WAIT, ConfigType.BOOLEAN).defaultValue(true)
                        .description("wait until Qdrant has applied each write; false returns once it is queued, so a search "
                                + "right after may not see it (bulk loads only)").build(),
                ConfigOption.builder(KEYWORD_SEARCH, ConfigType.BOOLEAN).defaultValue(true)
                        .description("serve the keyword leg with a BM25-weighted sparse vector (Qdrant's idf modifier)").build(),
                ConfigOption.builder(BM25_K1, ConfigType.DOUBLE).defaultValue(1.2).minimum(0).maximum(10)
                        .description("BM25 term-frequency saturation of the indexed weights").build(),
                ConfigOption.builder(BM25_B, ConfigType.DOUBLE).defaultValue(0.75).minimum(0).maximum(1)
                        .description("BM25 length normalisation of the indexed weights").build(),
                ConfigOption.builder(BM25_AVG_LENGTH, ConfigType.INT).defaultValue(256).minimum(1).maximum(100000)
                        .description("the average chunk length in terms BM25 normalises by (a fixed constant: weights are "
                                + "computed as chunks arrive)").build(),
                ConfigOption.builder(TIERED_MULTITENANCY, ConfigType.BOOLEAN).defaultValue(false)
                        .description("create collections with custom sharding: a shared fallback shard, and a shard of their own "
                                + "for the dedicatedTenants (Qdrant >= 1.16). Fixed per collection once created").build(),
                ConfigOption.builder(DEDICATED_TENANTS, ConfigType.LIST)
                        .description("tenants that get their own shard (needs tieredMultitenancy)").build(),
                ConfigOption.builder(CLIENT_FILTER_MAX_POINTS, ConfigType.INT).defaultValue(100000).minimum(100).maximum(10000000)
                        .description("most points a filter with a string range may make the store read: Qdrant cannot range "
                                + "strings, so the store evaluates those filters itself over what the rest of the filter selects").build(),
                ConfigOption.builder(LIST_SNAPSHOT_TTL, ConfigType.DURATION).defaultValue("60s").minimum("0s").maximum("1h")
                        .description("how long the sorted chunk ids of a namespace serve the next pages of a list traversal "
                                + "(Qdrant cannot order by a string); 0s sorts again for every page").build());
    }
}
