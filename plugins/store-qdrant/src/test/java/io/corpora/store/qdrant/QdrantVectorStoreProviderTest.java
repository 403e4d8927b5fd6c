package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.Namespace;
import io.corpora.spi.config.ConfigOption;
import io.corpora.spi.config.ConfigType;
import io.corpora.spi.config.InvalidConfigException;
import io.corpora.spi.config.PluginConfig;
import io.corpora.spi.config.PluginContext;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import io.corpora.spi.store.VectorStoreProvider;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.ServiceLoader;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The provider and its options, and what the store does before it ever reaches Qdrant: configuration checks, refusing
 * chunks it cannot store, and failing clearly when nothing answers (a closed port on loopback; no Qdrant runs here).
 */
class QdrantVectorStoreProviderTest {

    private static final PluginContext CONTEXT = PluginContext.of(Path.of("target", "qdrant-test"), "io.corpora.store.qdrant.test");

    static PluginConfig config(Map<String, String> options) {
        return PluginConfig.validate(QdrantVectorStoreProvider.NAME, QdrantOptions.all(), options);
    }

    @Test
    void serviceLoaderFindsTheProvider() {
        VectorStoreProvider provider = ServiceLoader.load(VectorStoreProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals("qdrant")).findFirst().orElseThrow();
        assertInstanceOf(QdrantVectorStoreProvider.class, provider);
        assertEquals(Set.of("url", "collection"), provider.locationOptions());
    }

    /** Every number and duration declares its bounds, so the server validates them and GET /admin/v1/plugins shows them. */
    @Test
    void everyNumericOptionDeclaresBothBoundsAndSecretsAreMarked() {
        for (ConfigOption option : QdrantOptions.all()) {
            if (EnumSet.of(ConfigType.INT, ConfigType.LONG, ConfigType.DOUBLE, ConfigType.DURATION).contains(option.type())) {
                assertNotNull(option.minimum(), option.name() + " minimum");
                assertNotNull(option.maximum(), option.name() + " maximum");
            }
            assertFalse(option.description().isBlank(), option.name());
        }
        Map<String, ConfigOption> byName = new HashMap<>();
        QdrantOptions.all().forEach(o -> byName.put(o.name(), o));
        assertTrue(byName.get(QdrantOptions.API_KEY).secret());
        assertTrue(byName.get(QdrantOptions.TRUST_STORE_PASSWORD).secret());
        assertTrue(byName.get(QdrantOptions.URL).required());
        InvalidConfigException outOfBounds = assertThrows(InvalidConfigException.class, () -> config(Map.of(QdrantOptions.URL, "http://h",
                QdrantOptions.HNSW_M, "1", QdrantOptions.UPSERT_BATCH_SIZE, "0", QdrantOptions.TIMEOUT, "0ms")));
        assertEquals(3, outOfBounds.problems().size(), outOfBounds.getMessage());
    }

    /** The knobs every store has are spelled alike (hnsw.*, bm25.*), and the pre-1.3 HNSW spellings still configure them. */
    @Test
    void sharedKnobsAreSpelledAsTheOtherStoresSpellThemAndOldSpellingsAreAliases() {
        Set<String> names = new java.util.HashSet<>();
        QdrantOptions.all().forEach(o -> names.add(o.name()));
        assertTrue(names.containsAll(List.of("metric", "hnsw.m", "hnsw.efConstruction", "hnsw.efSearch", "upsertBatchSize", "bm25.k1", "bm25.b")),
                names.toString());
        QdrantSettings old = QdrantSettings.from(config(Map.of(QdrantOptions.URL, "http://q", "hnswM", "24", "hnswEfConstruction", "200",
                "efSearch", "64")));
        assertEquals(List.of(24, 200, 64), List.of(old.hnswM(), old.hnswEfConstruction(), old.efSearch()));
    }

    @Test
    void theUrlNamesOnlyASchemeAHostAndAPort() {
        QdrantSettings plain = QdrantSettings.from(config(Map.of(QdrantOptions.URL, "http://qdrant.internal")));
        assertEquals("qdrant.internal", plain.host());
        assertEquals(6334, plain.port(), "Qdrant's gRPC port by default");
        assertFalse(plain.tls());
        QdrantSettings tls = QdrantSettings.from(config(Map.of(QdrantOptions.URL, "HTTPS://q.example:443")));
        assertTrue(tls.tls());
        assertEquals(443, tls.port());
        assertEquals("https://q.example:443", tls.endpoint());
        for (String bad : List.of("q.example:6334", "ftp://q", "http://user:pw@q:6334", "http://q:6334/collections", "http://q?x=1",
                "http:///nohost", "not a url")) {
            InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> QdrantSettings.from(config(Map.of(QdrantOptions.URL, bad))), bad);
            assertTrue(e.getMessage().contains("url"), e.getMessage());
        }
    }

    @Test
    void everySettingProblemIsReportedAtOnce() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> QdrantSettings.from(config(Map.of(
                QdrantOptions.URL, "http://q", QdrantOptions.COLLECTION, "Bad Name", QdrantOptions.TRUST_STORE, "/tmp/trust.p12",
                QdrantOptions.DEDICATED_TENANTS, "bigco"))));
        assertEquals(3, e.problems().size(), e.getMessage());
        assertTrue(e.getMessage().contains("trustStore is set but url is not https"), e.getMessage());
        assertEquals(e.problems(), assertThrows(InvalidConfigException.class, () -> new QdrantVectorStoreProvider().validate(config(Map.of(
                QdrantOptions.URL, "http://q", QdrantOptions.COLLECTION, "Bad Name", QdrantOptions.TRUST_STORE, "/tmp/trust.p12",
                QdrantOptions.DEDICATED_TENANTS, "bigco")))).problems(), "what the server checks where a definition enters");
    }

    @Test
    void anUnreadableTrustStoreIsAConfigurationError() {
        InvalidConfigException e = assertThrows(InvalidConfigException.class, () -> new QdrantVectorStoreProvider().create(CONTEXT,
                config(Map.of(QdrantOptions.URL, "https://127.0.0.1:6334", QdrantOptions.TRUST_STORE, "target/no-such-trust.p12"))));
        assertTrue(e.getMessage().contains("no-such-trust.p12"), e.getMessage());
        new QdrantVectorStoreProvider().validate(config(Map.of(QdrantOptions.URL, "https://127.0.0.1:6334", QdrantOptions.TRUST_STORE,
                "target/no-such-trust.p12"))); // the file is the server's, found by create: validate passes it
    }

    @Test
    void capabilitiesFollowTheKeywordOption() throws Exception {
        try (VectorStore store = new QdrantVectorStoreProvider().create(CONTEXT, config(Map.of(QdrantOptions.URL, closedEndpoint())))) {
            assertEquals(EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.KEYWORD_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN,
                    StoreCapability.RETURNS_EMBEDDINGS), store.capabilities());
        }
        try (VectorStore store = new QdrantVectorStoreProvider().create(CONTEXT, config(Map.of(QdrantOptions.URL, closedEndpoint(),
                QdrantOptions.KEYWORD_SEARCH, "false")))) {
            assertFalse(store.capabilities().contains(StoreCapability.KEYWORD_SEARCH), "the engine then falls back as for vector-only stores");
        }
    }

    /** Creating a store makes no call: a Qdrant that is down fails readiness, with a message naming it, not the tenant's creation. */
    @Test
    void nothingAnsweringIsAClearFailureOfTheCallNotOfCreation() throws Exception {
        String endpoint = closedEndpoint();
        try (VectorStore store = new QdrantVectorStoreProvider().create(CONTEXT, config(Map.of(QdrantOptions.URL, endpoint,
                QdrantOptions.TIMEOUT, "3s")))) {
            QdrantStoreException health = assertThrows(QdrantStoreException.class, store::checkHealth);
            assertTrue(health.getMessage().startsWith("Qdrant " + endpoint + " failed to answer a health check: UNAVAILABLE"), health.getMessage());
            QdrantStoreException count = assertThrows(QdrantStoreException.class,
                    () -> store.count(Namespace.of("acme"), io.corpora.spi.MetadataFilter.all()));
            assertTrue(count.getMessage().contains("list collections"), count.getMessage());
        }
    }

    /** Every chunk is checked before anything is sent: these fail with their reason even though nothing could be written. */
    @Test
    void chunksTheStoreCannotHoldAreRefusedBeforeAnyCall() throws Exception {
        try (VectorStore store = new QdrantVectorStoreProvider().create(CONTEXT, config(Map.of(QdrantOptions.URL, closedEndpoint())))) {
            Chunk chunk = new Chunk("d#0", "d", 0, "t", List.of(), Map.of());
            IllegalArgumentException none = assertThrows(IllegalArgumentException.class, () -> store.upsert(Namespace.of("acme"),
                    List.of(new EmbeddedChunk(chunk, new float[] {1, 2}), new EmbeddedChunk(chunk.withText("x").withMetadata(Map.of()), null))));
            assertTrue(none.getMessage().contains("has no embedding"), none.getMessage());
            IllegalArgumentException zero = assertThrows(IllegalArgumentException.class,
                    () -> store.upsert(Namespace.of("acme"), List.of(new EmbeddedChunk(chunk, new float[] {0, 0}))));
            assertTrue(zero.getMessage().contains("zero vector"), zero.getMessage());
            store.upsert(Namespace.of("acme"), List.of()); // nothing to write: no call at all
        }
    }

    @Test
    void aClosedStoreSaysSo() {
        VectorStore store = new QdrantVectorStoreProvider().create(CONTEXT, config(Map.of(QdrantOptions.URL, closedEndpoint())));
        store.close();
        store.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, store::checkHealth);
        assertTrue(e.getMessage().contains("is closed"), e.getMessage());
    }

    /** A loopback port that was free a moment ago: nothing listens on it. */
    static String closedEndpoint() {
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return "http://127.0.0.1:" + socket.getLocalPort();
        } catch (java.io.IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
