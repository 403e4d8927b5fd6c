package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.InvalidInputException;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.VectorStore;
import io.corpora.testkit.TestVectors;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QdrantGrpcClient;
import io.qdrant.client.grpc.Collections.ShardKeyDescription;
import io.qdrant.client.grpc.Points.CountPoints;
import io.qdrant.client.grpc.Points.ShardKeySelector;
import io.qdrant.client.ShardKeyFactory;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What only the Qdrant store does, on a real Qdrant ({@link QdrantBackend}; skipped with the reason when there is none):
 * tiered shards, vector widths in separate collections, collections refused for other settings, tenant purge, and the
 * bound of client-side string-range checks. Where the layout matters it is read back with a plain Qdrant client.
 */
class QdrantStoreIT {

    private final String run = "s" + Long.toHexString(ThreadLocalRandom.current().nextLong() & 0xffffffL);

    @BeforeEach
    void requireQdrant() {
        QdrantBackend.url(getClass());
    }

    private static EmbeddedChunk chunk(String doc, int index, float[] vector, Map<String, ?> metadata) {
        return new EmbeddedChunk(new Chunk(doc + "#" + index, doc, index, "text " + doc + " " + index, List.of(), Map.copyOf(metadata)), vector);
    }

    private static QdrantClient rawClient() {
        URI url = URI.create(QdrantBackend.url());
        return new QdrantClient(QdrantGrpcClient.newBuilder(url.getHost(), url.getPort(), false).build());
    }

    private static long countIn(QdrantClient client, String collection, String shardKey, String tenant) throws Exception {
        return client.grpcClient().points().count(CountPoints.newBuilder().setCollectionName(collection).setExact(true)
                .setFilter(FilterTranslator.tenant(tenant))
                .setShardKeySelector(ShardKeySelector.newBuilder().addShardKeys(ShardKeyFactory.shardKey(shardKey))).build())
                .get().getResult().getCount();
    }

    @Test
    void aDedicatedTenantHasItsOwnShardAndTheOthersShareTheFallback() throws Exception {
        String prefix = QdrantBackend.freshPrefix("tiered");
        String big = run + "-big";
        String small = run + "-small";
        TestVectors vectors = new TestVectors(1, 8);
        try (VectorStore store = QdrantBackend.open(prefix, Map.of(QdrantOptions.TIERED_MULTITENANCY, "true",
                QdrantOptions.DEDICATED_TENANTS, big)); QdrantClient client = rawClient()) {
            store.upsert(Namespace.of(big), IntStream.range(0, 5).mapToObj(i -> chunk("d", i, vectors.next(), Map.of())).toList());
            store.upsert(Namespace.of(small), IntStream.range(0, 3).mapToObj(i -> chunk("d", i, vectors.next(), Map.of())).toList());
            String collection = prefix + "_d8";
            Set<String> keys = client.listShardKeysAsync(collection).get().stream().map(ShardKeyDescription::getKey)
                    .map(k -> k.getKeyword()).collect(Collectors.toSet());
            assertEquals(Set.of(ShardRouting.FALLBACK_KEY, big), keys);
            assertEquals(5, countIn(client, collection, big, big), "the dedicated tenant's chunks are in its shard");
            assertEquals(0, countIn(client, collection, ShardRouting.FALLBACK_KEY, big));
            assertEquals(3, countIn(client, collection, ShardRouting.FALLBACK_KEY, small), "the others share the fallback shard");
            assertEquals(5, store.count(Namespace.of(big), MetadataFilter.all()));
            assertEquals(3, store.count(Namespace.of(small), MetadataFilter.all()));
            assertEquals(3, store.search(Namespace.of(small), SearchRequest.vector(vectors.next(), 10, MetadataFilter.all(), null, null)).size());
        }
        // configured as dedicated only after it holds chunks: a new, empty shard would hide them, so it stays shared
        try (VectorStore later = QdrantBackend.open(prefix, Map.of(QdrantOptions.TIERED_MULTITENANCY, "true",
                QdrantOptions.DEDICATED_TENANTS, big + "," + small)); QdrantClient client = rawClient()) {
            assertEquals(3, later.count(Namespace.of(small), MetadataFilter.all()));
            Set<String> keys = client.listShardKeysAsync(prefix + "_d8").get().stream().map(k -> k.getKey().getKeyword()).collect(Collectors.toSet());
            assertEquals(Set.of(ShardRouting.FALLBACK_KEY, big), keys, "no shard for the tenant whose chunks are in the shared one");
        }
    }

    @Test
    void aChunkReEmbeddedAtAnotherWidthMovesToThatWidthsCollection() {
        String prefix = QdrantBackend.freshPrefix("widths");
        Namespace ns = Namespace.of(run + "-w");
        try (VectorStore store = QdrantBackend.open(prefix, Map.of())) {
            store.upsert(ns, List.of(chunk("d", 0, new TestVectors(2, 8).next(), Map.of()), chunk("d", 1, new TestVectors(3, 8).next(), Map.of())));
            float[] wide = new TestVectors(4, 16).next();
            store.upsert(ns, List.of(chunk("d", 0, wide, Map.of("v", 2))));
            assertEquals(2, store.count(ns, MetadataFilter.all()), "one chunk per id across the collections");
            assertEquals(List.of("d#0", "d#1"), store.documentChunks(ns, "d").stream().map(Chunk::id).toList());
            assertEquals(List.of("d#0", "d#1"), store.list(ns, null, 10).chunks().stream().map(Chunk::id).toList());
            assertEquals(List.of("d#1"), store.search(ns, SearchRequest.vector(new TestVectors(5, 8).next(), 10, MetadataFilter.all(), null, null))
                    .stream().map(h -> h.chunk().id()).toList(), "the old width no longer holds d#0");
            assertEquals(List.of("d#0"), store.search(ns, SearchRequest.vector(wide, 10, MetadataFilter.all(), null, null))
                    .stream().map(h -> h.chunk().id()).toList());
            IllegalArgumentException unknown = assertThrows(IllegalArgumentException.class,
                    () -> store.search(ns, SearchRequest.vector(new float[32], 5, MetadataFilter.all(), null, null)));
            assertTrue(unknown.getMessage().contains("holds widths [8, 16]"), unknown.getMessage());
        }
    }

    @Test
    void aCollectionOfAnotherMetricIsRefusedNamingBoth() {
        String prefix = QdrantBackend.freshPrefix("metric");
        Namespace ns = Namespace.of(run + "-m");
        try (VectorStore cosine = QdrantBackend.open(prefix, Map.of())) {
            cosine.upsert(ns, List.of(chunk("d", 0, new TestVectors(6, 8).next(), Map.of())));
        }
        try (VectorStore l2 = QdrantBackend.open(prefix, Map.of(QdrantOptions.METRIC, "l2"))) {
            QdrantStoreException e = assertThrows(QdrantStoreException.class, () -> l2.count(ns, MetadataFilter.all()));
            assertTrue(e.getMessage().contains("distance is Cosine but metric=l2 needs Euclid"), e.getMessage());
        }
    }

    @Test
    void deleteTenantRemovesEveryPartitionAndNoOtherTenant() {
        String prefix = QdrantBackend.freshPrefix("purge");
        String tenant = run + "-p";
        TestVectors vectors = new TestVectors(7, 8);
        try (VectorStore store = QdrantBackend.open(prefix, Map.of())) {
            for (Namespace ns : List.of(Namespace.of(tenant), Namespace.of(tenant, "legal"), Namespace.of(tenant, "never-named"),
                    Namespace.of(run + "-other"))) {
                store.upsert(ns, List.of(chunk("d", 0, vectors.next(), Map.of())));
            }
            assertTrue(store.deleteTenant(tenant));
            for (Namespace ns : List.of(Namespace.of(tenant), Namespace.of(tenant, "legal"), Namespace.of(tenant, "never-named"))) {
                assertEquals(0, store.count(ns, MetadataFilter.all()), ns.key());
            }
            assertEquals(1, store.count(Namespace.of(run + "-other"), MetadataFilter.all()));
            assertTrue(store.deleteTenant(tenant), "idempotent");
        }
    }

    @Test
    void aStringRangeOverMoreChunksThanTheStoreMayCheckIsTheCallersToNarrow() {
        String prefix = QdrantBackend.freshPrefix("bound");
        Namespace ns = Namespace.of(run + "-b");
        TestVectors vectors = new TestVectors(8, 8);
        try (VectorStore store = QdrantBackend.open(prefix, Map.of(QdrantOptions.CLIENT_FILTER_MAX_POINTS, "100"))) {
            store.upsert(ns, IntStream.range(0, 150).mapToObj(i -> chunk("d", i, vectors.next(),
                    Map.of("at", String.format("2024-01-%02d", 1 + i % 28), "even", i % 2 == 0))).toList());
            MetadataFilter range = new MetadataFilter.Range("at", "2024-01-10", true, null, false);
            assertThrows(InvalidInputException.class, () -> store.count(ns, range), "the caller's filter, a 4xx");
            MetadataFilter narrowed = MetadataFilter.and(MetadataFilter.eq("even", true), MetadataFilter.anyOf("at", List.of("2024-01-12", "2024-01-20")),
                    range);
            long expected = IntStream.range(0, 150).filter(i -> i % 2 == 0)
                    .mapToObj(i -> String.format("2024-01-%02d", 1 + i % 28)).filter(d -> d.equals("2024-01-12") || d.equals("2024-01-20")).count();
            assertEquals(expected, store.count(ns, narrowed), "narrowed by conditions Qdrant evaluates, the range is checked by the store");
        }
    }
}
