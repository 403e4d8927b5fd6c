package io.corpora.store.qdrant;

import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.CollectionParams;
import io.qdrant.client.grpc.Collections.CreateCollection;
import io.qdrant.client.grpc.Collections.Distance;
import io.qdrant.client.grpc.Collections.HnswConfigDiff;
import io.qdrant.client.grpc.Collections.KeywordIndexParams;
import io.qdrant.client.grpc.Collections.Modifier;
import io.qdrant.client.grpc.Collections.PayloadIndexParams;
import io.qdrant.client.grpc.Collections.PayloadSchemaType;
import io.qdrant.client.grpc.Collections.ShardingMethod;
import io.qdrant.client.grpc.Collections.SparseVectorConfig;
import io.qdrant.client.grpc.Collections.SparseVectorParams;
import io.qdrant.client.grpc.Collections.VectorParams;
import io.qdrant.client.grpc.Collections.VectorParamsMap;
import io.qdrant.client.grpc.Collections.VectorsConfig;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What one of the store's collections looks like, as Qdrant's multitenancy guide lays it out: the global HNSW graph off
 * ({@code m: 0}) and a graph per tenant instead ({@code payload_m}), the tenant and partition in keyword indexes created
 * with {@code is_tenant: true} (points of one tenant stored together), the other filtered fields indexed without extra
 * graph links ({@code enable_hnsw: false}); the named vectors {@code dense} (the metric's distance), {@code raw} (cosine
 * only: Qdrant normalises cosine vectors on upload, so an unindexed on-disk copy keeps the original for hits that return
 * their vector) and the sparse {@code bm25} with the {@code idf} modifier; custom sharding when tiered multitenancy is on.
 */
final class CollectionSchema {

    /** One payload index the store creates. */
    record PayloadIndex(String field, PayloadSchemaType type, PayloadIndexParams params) {}

    private CollectionSchema() {}

    static CreateCollection create(String name, int width, QdrantSettings settings) {
        VectorParamsMap.Builder vectors = VectorParamsMap.newBuilder()
                .putMap(ChunkPayload.DENSE_VECTOR, VectorParams.newBuilder().setSize(width).setDistance(settings.metric().distance).build());
        if (keepsRawVectors(settings.metric())) {
            vectors.putMap(ChunkPayload.RAW_VECTOR, VectorParams.newBuilder().setSize(width).setDistance(Distance.Dot).setOnDisk(true)
                    .setHnswConfig(HnswConfigDiff.newBuilder().setM(0).setPayloadM(0).build()).build());
        }
        CreateCollection.Builder create = CreateCollection.newBuilder()
                .setCollectionName(name)
                .setVectorsConfig(VectorsConfig.newBuilder().setParamsMap(vectors).build())
                .setSparseVectorsConfig(SparseVectorConfig.newBuilder().putMap(ChunkPayload.SPARSE_VECTOR,
                        SparseVectorParams.newBuilder().setModifier(Modifier.Idf).build()).build())
                .setHnswConfig(HnswConfigDiff.newBuilder().setM(0).setPayloadM(settings.hnswM())
                        .setEfConstruct(settings.hnswEfConstruction()).build());
        if (settings.routing().enabled()) {
            create.setShardingMethod(ShardingMethod.Custom);
        }
        return create.build();
    }

    static boolean keepsRawVectors(QdrantMetric metric) {
        return metric == QdrantMetric.COSINE;
    }

    /** The vector a hit returns as its stored embedding: the original, never Qdrant's normalised copy. */
    static String returnedVector(QdrantMetric metric) {
        return keepsRawVectors(metric) ? ChunkPayload.RAW_VECTOR : ChunkPayload.DENSE_VECTOR;
    }

    static List<PayloadIndex> payloadIndexes() {
        return List.of(
                new PayloadIndex(ChunkPayload.TENANT, PayloadSchemaType.Keyword, keyword(true, true)),
                new PayloadIndex(ChunkPayload.PARTITION, PayloadSchemaType.Keyword, keyword(true, false)),
                new PayloadIndex(ChunkPayload.DOCUMENT_ID, PayloadSchemaType.Keyword, keyword(false, false)),
                new PayloadIndex(ChunkPayload.CHUNK_ID, PayloadSchemaType.Keyword, keyword(false, false)),
                new PayloadIndex(ChunkPayload.EMBEDDER, PayloadSchemaType.Keyword, keyword(false, false)),
                new PayloadIndex(ChunkPayload.META_KEYS, PayloadSchemaType.Keyword, keyword(false, false)));
    }

    private static PayloadIndexParams keyword(boolean tenant, boolean graphLinks) {
        return PayloadIndexParams.newBuilder().setKeywordIndexParams(
                KeywordIndexParams.newBuilder().setIsTenant(tenant).setEnableHnsw(graphLinks).build()).build();
    }

    /** The indexes an existing collection lacks (a creator that stopped half-way, or a collection made by hand). */
    static List<PayloadIndex> missingIndexes(CollectionInfo info) {
        List<PayloadIndex> missing = new ArrayList<>();
        for (PayloadIndex index : payloadIndexes()) {
            if (!info.getPayloadSchemaMap().containsKey(index.field())) {
                missing.add(index);
            }
        }
        return missing;
    }

    /** Why an existing collection cannot serve this store's settings at this width; empty when it can. */
    static List<String> problems(String name, CollectionInfo info, int width, QdrantSettings settings) {
        List<String> problems = new ArrayList<>();
        CollectionParams params = info.getConfig().getParams();
        Map<String, VectorParams> vectors = params.getVectorsConfig().hasParamsMap()
                ? params.getVectorsConfig().getParamsMap().getMapMap() : Map.of();
        VectorParams dense = vectors.get(ChunkPayload.DENSE_VECTOR);
        if (dense == null) {
            problems.add("it has no '" + ChunkPayload.DENSE_VECTOR + "' vector (not created by the Corpora store)");
        } else {
            if (dense.getSize() != width) {
                problems.add("its vectors have width " + dense.getSize() + ", not " + width);
            }
            if (dense.getDistance() != settings.metric().distance) {
                problems.add("its distance is " + dense.getDistance() + " but metric=" + settings.metric().optionValue
                        + " needs " + settings.metric().distance + " (the metric is fixed once a collection exists)");
            }
        }
        if (keepsRawVectors(settings.metric()) && !vectors.containsKey(ChunkPayload.RAW_VECTOR)) {
            problems.add("it has no '" + ChunkPayload.RAW_VECTOR + "' vector");
        }
        if (!params.getSparseVectorsConfig().getMapMap().containsKey(ChunkPayload.SPARSE_VECTOR)) {
            problems.add("it has no '" + ChunkPayload.SPARSE_VECTOR + "' sparse vector");
        }
        boolean custom = params.getShardingMethod() == ShardingMethod.Custom;
        if (custom != settings.routing().enabled()) {
            problems.add("its sharding is " + params.getShardingMethod() + " but tieredMultitenancy=" + settings.routing().enabled()
                    + " (the sharding method is fixed once a collection exists)");
        }
        return problems.stream().map(p -> "collection '" + name + "': " + p).toList();
    }
}
