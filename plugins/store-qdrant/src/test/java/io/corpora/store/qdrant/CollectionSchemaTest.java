package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.qdrant.client.grpc.Collections.CollectionConfig;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.CollectionParams;
import io.qdrant.client.grpc.Collections.CreateCollection;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.KeywordIndexParams;
import io.qdrant.client.grpc.Collections.Modifier;
import io.qdrant.client.grpc.Collections.PayloadSchemaInfo;
import io.qdrant.client.grpc.Collections.PayloadSchemaType;
import io.qdrant.client.grpc.Collections.ShardingMethod;
import io.qdrant.client.grpc.Collections.VectorParams;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The collection layout of Qdrant's multitenancy guide (https://qdrant.tech/documentation/manage-data/multitenancy/):
 * "Set payload_m in the HNSW configuration to a non-zero value, such as 16. Set m in hnsw config to 0. This will disable
 * building global index for the whole collection"; "Create keyword payload index for group_id field" with is_tenant=true,
 * which "co-locate[s] vectors of the same tenant together"; "you need to create a collection with user-defined (aka custom)
 * sharding" for tiered multitenancy. Extra graph links are off for fields no dense search narrows by ("setting enable_hnsw
 * to false", https://qdrant.tech/documentation/manage-data/indexing/, v1.17), and the sparse vector has the IDF modifier.
 */
class CollectionSchemaTest {

    @Test
    void theGlobalGraphIsOffAndEachTenantGetsItsOwn() {
        CreateCollection create = CollectionSchema.create("corpora_d384", 384, ShardRoutingTest.settings(Map.of(
                QdrantOptions.HNSW_M, "24", QdrantOptions.HNSW_EF_CONSTRUCTION, "200")));
        assertEquals(0, create.getHnswConfig().getM());
        assertEquals(24, create.getHnswConfig().getPayloadM(), "hnswM is the per-tenant graph's m");
        assertEquals(200, create.getHnswConfig().getEfConstruct());
        assertFalse(create.hasShardingMethod(), "auto sharding unless tiered multitenancy is on");
        assertEquals(Modifier.Idf, create.getSparseVectorsConfig().getMapMap().get(ChunkPayload.SPARSE_VECTOR).getModifier());
    }

    @Test
    void cosineKeepsAnUnindexedCopyOfTheOriginalVectorAndTheOthersDoNot() {
        Map<String, VectorParams> cosine = CollectionSchema.create("c", 8, ShardRoutingTest.settings(Map.of()))
                .getVectorsConfig().getParamsMap().getMapMap();
        assertEquals(Distance.Cosine, cosine.get(ChunkPayload.DENSE_VECTOR).getDistance());
        assertEquals(8, cosine.get(ChunkPayload.DENSE_VECTOR).getSize());
        VectorParams raw = cosine.get(ChunkPayload.RAW_VECTOR);
        assertEquals(0, raw.getHnswConfig().getM());
        assertEquals(0, raw.getHnswConfig().getPayloadM(), "no graph of any kind for the copy");
        assertTrue(raw.getOnDisk());
        assertEquals(ChunkPayload.RAW_VECTOR, CollectionSchema.returnedVector(QdrantMetric.COSINE));
        for (String metric : List.of("l2", "inner")) {
            Map<String, VectorParams> vectors = CollectionSchema.create("c", 8, ShardRoutingTest.settings(Map.of(QdrantOptions.METRIC, metric)))
                    .getVectorsConfig().getParamsMap().getMapMap();
            assertEquals(Boolean.FALSE, vectors.containsKey(ChunkPayload.RAW_VECTOR), metric + " stores vectors as given");
            assertEquals(QdrantMetric.parse(metric).distance, vectors.get(ChunkPayload.DENSE_VECTOR).getDistance());
            assertEquals(ChunkPayload.DENSE_VECTOR, CollectionSchema.returnedVector(QdrantMetric.parse(metric)));
        }
    }

    @Test
    void tenantAndPartitionAreTenantIndexesAndOnlyTheTenantBuildsGraphLinks() {
        Map<String, CollectionSchema.PayloadIndex> indexes = new java.util.LinkedHashMap<>();
        CollectionSchema.payloadIndexes().forEach(i -> indexes.put(i.field(), i));
        assertEquals(List.of("tenant", "partition", "document_id", "chunk_id", "embedder", "meta_keys"), List.copyOf(indexes.keySet()));
        for (CollectionSchema.PayloadIndex index : indexes.values()) {
            assertEquals(PayloadSchemaType.Keyword, index.type(), index.field());
            KeywordIndexParams params = index.params().getKeywordIndexParams();
            boolean tenantField = index.field().equals("tenant") || index.field().equals("partition");
            assertEquals(tenantField, params.getIsTenant(), index.field() + " is_tenant");
            assertEquals(index.field().equals("tenant"), params.getEnableHnsw(), index.field() + " enable_hnsw");
        }
    }

    @Test
    void tieredMultitenancyCreatesCustomShardedCollections() {
        CreateCollection create = CollectionSchema.create("c", 8, ShardRoutingTest.settings(Map.of(QdrantOptions.TIERED_MULTITENANCY, "true")));
        assertEquals(ShardingMethod.Custom, create.getShardingMethod());
    }

    /** An existing collection is read back and refused when it cannot serve the settings, naming each reason. */
    @Test
    void aCollectionMadeForOtherSettingsIsRefusedWithEveryReason() {
        QdrantSettings cosine = ShardRoutingTest.settings(Map.of());
        assertEquals(List.of(), CollectionSchema.problems("c", infoOf(CollectionSchema.create("c", 8, cosine), List.of()), 8, cosine));

        QdrantSettings dotTiered = ShardRoutingTest.settings(Map.of(QdrantOptions.METRIC, "inner", QdrantOptions.TIERED_MULTITENANCY, "true"));
        List<String> problems = CollectionSchema.problems("c", infoOf(CollectionSchema.create("c", 8, cosine), List.of()), 8, dotTiered);
        assertEquals(2, problems.size(), problems.toString());
        assertTrue(problems.get(0).contains("distance is Cosine but metric=inner needs Dot"), problems.get(0));
        assertTrue(problems.get(1).contains("sharding is Auto but tieredMultitenancy=true"), problems.get(1));

        QdrantSettings euclid = ShardRoutingTest.settings(Map.of(QdrantOptions.METRIC, "l2"));
        List<String> asCosine = CollectionSchema.problems("c", infoOf(CollectionSchema.create("c", 8, euclid), List.of()), 8, cosine);
        assertTrue(asCosine.stream().anyMatch(p -> p.contains("no 'raw' vector")), asCosine.toString());
        CollectionInfo foreign = CollectionInfo.newBuilder().setConfig(CollectionConfig.newBuilder().setParams(CollectionParams.newBuilder())).build();
        assertTrue(CollectionSchema.problems("legacy", foreign, 8, cosine).get(0).contains("not created by the Corpora store"));
    }

    @Test
    void missingIndexesAreFoundSoAnInterruptedCreationHealsItself() {
        CollectionInfo partial = infoOf(CollectionSchema.create("c", 8, ShardRoutingTest.settings(Map.of())), List.of("tenant", "partition"));
        assertEquals(List.of("document_id", "chunk_id", "embedder", "meta_keys"),
                CollectionSchema.missingIndexes(partial).stream().map(CollectionSchema.PayloadIndex::field).toList());
    }

    /** What Qdrant reports for a collection created this way (collection info's config.params mirrors the request). */
    private static CollectionInfo infoOf(CreateCollection create, List<String> indexed) {
        CollectionParams.Builder params = CollectionParams.newBuilder().setVectorsConfig(create.getVectorsConfig())
                .setSparseVectorsConfig(create.getSparseVectorsConfig());
        if (create.hasShardingMethod()) {
            params.setShardingMethod(create.getShardingMethod());
        }
        CollectionInfo.Builder info = CollectionInfo.newBuilder().setConfig(CollectionConfig.newBuilder().setParams(params));
        indexed.forEach(field -> info.putPayloadSchema(field, PayloadSchemaInfo.newBuilder().setDataType(PayloadSchemaType.Keyword).build()));
        return info.build();
    }
}
