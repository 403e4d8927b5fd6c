package io.corpora.store.qdrant;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.InvalidInputException;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import io.corpora.spi.store.ChunkPage;
import io.corpora.spi.store.ScoredChunk;
import io.corpora.spi.store.SearchMode;
import io.corpora.spi.store.SearchRequest;
import io.corpora.spi.store.StoreCapability;
import io.corpora.spi.store.VectorStore;
import io.qdrant.client.PointIdFactory;
import io.qdrant.client.QdrantClient;
import io.qdrant.client.QueryFactory;
import io.qdrant.client.VectorFactory;
import io.qdrant.client.VectorOutputHelper;
import io.qdrant.client.VectorsFactory;
import io.qdrant.client.WithPayloadSelectorFactory;
import io.qdrant.client.WithVectorsSelectorFactory;
import io.qdrant.client.grpc.Common.Filter;
import io.qdrant.client.grpc.Common.PointId;
import io.qdrant.client.grpc.Points.CountPoints;
import io.qdrant.client.grpc.Points.DeletePoints;
import io.qdrant.client.grpc.Points.GetPoints;
import io.qdrant.client.grpc.Points.PointStruct;
import io.qdrant.client.grpc.Points.PointsIdsList;
import io.qdrant.client.grpc.Points.PointsSelector;
import io.qdrant.client.grpc.Points.QueryPoints;
import io.qdrant.client.grpc.Points.RetrievedPoint;
import io.qdrant.client.grpc.Points.ScoredPoint;
import io.qdrant.client.grpc.Points.ScrollPoints;
import io.qdrant.client.grpc.Points.ScrollResponse;
import io.qdrant.client.grpc.Points.SearchParams;
import io.qdrant.client.grpc.Points.UpsertPoints;
import io.qdrant.client.grpc.Points.Vector;
import io.qdrant.client.grpc.Points.VectorOutput;
import io.qdrant.client.grpc.Points.WithPayloadSelector;
import io.qdrant.client.grpc.Points.WithVectorsSelector;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Future;
import java.util.function.Consumer;
import java.util.function.DoubleUnaryOperator;
import java.util.logging.Logger;

/**
 * The {@code qdrant} store. Tenants share one collection per vector width; every call is filtered by tenant and
 * partition (keyword indexes with {@code is_tenant}) and routed to the tenant's shard when tiered multitenancy is on.
 * See the module README for the layout and what was tested where.
 */
final class QdrantVectorStore implements VectorStore {

    private static final int SCROLL_PAGE = 512;
    private static final Comparator<ScoredChunk> CONTRACT_ORDER =
            Comparator.comparingDouble(ScoredChunk::score).reversed().thenComparing(hit -> hit.chunk().id());

    private final QdrantSettings settings;
    private final QdrantClient client;
    private final QdrantCollections collections;
    private final ListSnapshots snapshots;
    private final Set<StoreCapability> capabilities;
    private volatile boolean closed;

    QdrantVectorStore(QdrantSettings settings, QdrantClient client, Logger logger) {
        this.settings = settings;
        this.client = client;
        this.collections = new QdrantCollections(client, settings, logger);
        this.snapshots = new ListSnapshots(settings.listSnapshotTtl(), System::nanoTime);
        Set<StoreCapability> caps = EnumSet.of(StoreCapability.VECTOR_SEARCH, StoreCapability.MIN_SCORE_PUSHDOWN,
                StoreCapability.RETURNS_EMBEDDINGS);
        if (settings.keywordSearch()) {
            caps.add(StoreCapability.KEYWORD_SEARCH);
        }
        this.capabilities = Set.copyOf(caps);
    }

    @Override
    public Set<StoreCapability> capabilities() {
        return capabilities;
    }

    // ------------------------------------------------------------------------------------------------ writes

    @Override
    public void upsert(Namespace namespace, List<EmbeddedChunk> chunks) {
        requireOpen();
        Map<String, EmbeddedChunk> lastById = new LinkedHashMap<>();
        for (EmbeddedChunk chunk : chunks) {
            lastById.remove(chunk.chunk().id()); // a later duplicate takes the later position too
            lastById.put(chunk.chunk().id(), chunk);
        }
        if (lastById.isEmpty()) {
            return;
        }
        Map<Integer, List<PointStruct>> byWidth = new LinkedHashMap<>();
        for (EmbeddedChunk chunk : lastById.values()) { // every point is built, and so checked, before anything is written
            byWidth.computeIfAbsent(requireEmbedding(chunk).length, w -> new ArrayList<>()).add(point(namespace, chunk));
        }
        snapshots.invalidate(namespace);
        Map<Integer, String> targets = new LinkedHashMap<>();
        byWidth.keySet().forEach(width -> targets.put(width, collections.forWrite(width)));
        for (String other : collections.all()) { // a chunk re-embedded at another width must not stay behind in the old collection
            List<PointId> moving = new ArrayList<>();
            byWidth.forEach((width, points) -> {
                if (!targets.get(width).equals(other)) {
                    points.forEach(p -> moving.add(p.getId()));
                }
            });
            if (!moving.isEmpty()) {
                deletePoints(other, namespace.tenant(), moving);
            }
        }
        byWidth.forEach((width, points) -> {
            for (int from = 0; from < points.size(); from += settings.upsertBatchSize()) {
                List<PointStruct> batch = points.subList(from, Math.min(points.size(), from + settings.upsertBatchSize()));
                UpsertPoints.Builder upsert = UpsertPoints.newBuilder().setCollectionName(targets.get(width)).setWait(settings.upsertWait())
                        .addAllPoints(batch);
                settings.routing().selectorFor(namespace.tenant()).ifPresent(upsert::setShardKeySelector);
                await("upsert " + batch.size() + " points into " + targets.get(width), client.upsertAsync(upsert.build()));
            }
        });
    }

    private float[] requireEmbedding(EmbeddedChunk chunk) {
        if (!chunk.hasEmbedding()) {
            throw new IllegalArgumentException("chunk '" + chunk.chunk().id() + "' has no embedding: the Qdrant store keeps every "
                    + "chunk in the collection of its vector width, so each needs one");
        }
        float[] vector = chunk.embedding();
        if (settings.metric() == QdrantMetric.COSINE && isZero(vector)) {
            throw new IllegalArgumentException("chunk '" + chunk.chunk().id() + "' has a zero vector, which has no cosine");
        }
        return vector;
    }

    private PointStruct point(Namespace namespace, EmbeddedChunk chunk) {
        float[] embedding = chunk.embedding();
        Map<String, Vector> vectors = new LinkedHashMap<>();
        vectors.put(ChunkPayload.DENSE_VECTOR, VectorFactory.vector(embedding));
        if (CollectionSchema.keepsRawVectors(settings.metric())) {
            vectors.put(ChunkPayload.RAW_VECTOR, VectorFactory.vector(embedding));
        }
        if (settings.keywordSearch()) {
            Bm25Weights.Sparse weights = settings.bm25().document(chunk.indexText());
            if (!weights.isEmpty()) {
                vectors.put(ChunkPayload.SPARSE_VECTOR, VectorFactory.vector(weights.values(), weights.indices()));
            }
        }
        return PointStruct.newBuilder()
                .setId(PointIdFactory.id(PointIds.of(namespace, chunk.chunk().id())))
                .setVectors(VectorsFactory.namedVectors(vectors))
                .putAllPayload(ChunkPayload.encode(namespace, chunk.chunk()))
                .build();
    }

    @Override
    public int deleteChunks(Namespace namespace, Collection<String> chunkIds) {
        requireOpen();
        Set<String> distinct = new LinkedHashSet<>(chunkIds);
        if (distinct.isEmpty()) {
            return 0;
        }
        snapshots.invalidate(namespace);
        List<PointId> ids = distinct.stream().map(id -> PointIdFactory.id(PointIds.of(namespace, id))).toList();
        int deleted = 0;
        for (String collection : collections.all()) {
            GetPoints.Builder get = GetPoints.newBuilder().setCollectionName(collection).addAllIds(ids)
                    .setWithPayload(WithPayloadSelectorFactory.enable(false)).setWithVectors(WithVectorsSelectorFactory.enable(false));
            settings.routing().selectorFor(namespace.tenant()).ifPresent(get::setShardKeySelector);
            List<PointId> existing = await("read points of " + collection, client.retrieveAsync(get.build(), settings.timeout()))
                    .stream().map(RetrievedPoint::getId).toList();
            if (!existing.isEmpty()) {
                deletePoints(collection, namespace.tenant(), existing);
                deleted += existing.size();
            }
        }
        return deleted;
    }

    @Override
    public int deleteDocument(Namespace namespace, String documentId) {
        requireOpen();
        snapshots.invalidate(namespace);
        return deleteMatching(namespace.tenant(), FilterTranslator.document(namespace, documentId));
    }

    @Override
    public int deleteWhere(Namespace namespace, MetadataFilter filter) {
        requireOpen();
        FilterTranslator.Translation translation = FilterTranslator.translate(namespace, filter, null);
        if (translation.matchesNothing()) {
            return 0;
        }
        snapshots.invalidate(namespace);
        if (translation.exact()) {
            return deleteMatching(namespace.tenant(), translation.filter());
        }
        int deleted = 0;
        for (String collection : collections.all()) {
            List<PointId> matching = new ArrayList<>();
            scrollChecked(collection, namespace.tenant(), translation, filter, point -> matching.add(point.getId()));
            if (!matching.isEmpty()) {
                deletePoints(collection, namespace.tenant(), matching);
                deleted += matching.size();
            }
        }
        return deleted;
    }

    @Override
    public void deleteNamespace(Namespace namespace) {
        requireOpen();
        snapshots.invalidate(namespace);
        for (String collection : collections.all()) {
            deleteByFilter(collection, namespace.tenant(), FilterTranslator.namespace(namespace));
        }
    }

    /** Every partition of the tenant, in every collection: the tenant filter alone reaches them all. */
    @Override
    public boolean deleteTenant(String tenantId) {
        requireOpen();
        Namespace.of(tenantId); // validates the id before it goes into a filter
        snapshots.invalidateTenant(tenantId);
        for (String collection : collections.all()) {
            deleteByFilter(collection, tenantId, FilterTranslator.tenant(tenantId));
        }
        return true;
    }

    /** Counts, then deletes, what the filter selects in every collection; Qdrant's delete does not say how many it removed. */
    private int deleteMatching(String tenant, Filter filter) {
        int deleted = 0;
        for (String collection : collections.all()) {
            long count = count(collection, tenant, filter);
            if (count > 0) {
                deleteByFilter(collection, tenant, filter);
                deleted += (int) count;
            }
        }
        return deleted;
    }

    private void deletePoints(String collection, String tenant, List<PointId> ids) {
        delete(collection, tenant, PointsSelector.newBuilder().setPoints(PointsIdsList.newBuilder().addAllIds(ids)).build(),
                ids.size() + " points");
    }

    private void deleteByFilter(String collection, String tenant, Filter filter) {
        delete(collection, tenant, PointsSelector.newBuilder().setFilter(filter).build(), "points by filter");
    }

    private void delete(String collection, String tenant, PointsSelector points, String what) {
        DeletePoints.Builder delete = DeletePoints.newBuilder().setCollectionName(collection).setWait(true).setPoints(points);
        settings.routing().selectorFor(tenant).ifPresent(delete::setShardKeySelector);
        await("delete " + what + " from " + collection, client.deleteAsync(delete.build()));
    }

    // ------------------------------------------------------------------------------------------------ search

    @Override
    public List<ScoredChunk> search(Namespace namespace, SearchRequest request) {
        requireOpen();
        FilterTranslator.Translation translation = FilterTranslator.translate(namespace, request.filter(), request.embedderId());
        if (request.mode() == SearchMode.VECTOR) {
            return vectorSearch(namespace, request, translation);
        }
        if (!settings.keywordSearch()) {
            throw new IllegalStateException("keyword search is off for this store (" + QdrantOptions.KEYWORD_SEARCH + "=false)");
        }
        return keywordSearch(namespace, request, translation);
    }

    private List<ScoredChunk> vectorSearch(Namespace namespace, SearchRequest request, FilterTranslator.Translation translation) {
        float[] vector = request.vector();
        Optional<String> collection = collections.forRead(vector.length);
        if (collection.isEmpty()) {
            throw new IllegalArgumentException("no chunks of vector width " + vector.length + " in this store; it holds widths "
                    + collections.widths());
        }
        QdrantMetric.Threshold threshold = request.minScore() == null ? QdrantMetric.Threshold.NONE : settings.metric().threshold(request.minScore());
        if (translation.matchesNothing() || threshold.unreachable()) {
            return List.of();
        }
        QueryPoints.Builder query = QueryPoints.newBuilder().setQuery(QueryFactory.nearest(vector)).setUsing(ChunkPayload.DENSE_VECTOR);
        threshold.widened().ifPresent(query::setScoreThreshold);
        List<ScoredChunk> hits = ranked(collection.get(), namespace, query, translation, request, settings.metric()::contractScore);
        return cut(hits, request);
    }

    private List<ScoredChunk> keywordSearch(Namespace namespace, SearchRequest request, FilterTranslator.Translation translation) {
        Bm25Weights.Sparse terms = Bm25Weights.query(request.text());
        if (translation.matchesNothing() || terms.isEmpty()) {
            return List.of();
        }
        List<ScoredChunk> hits = new ArrayList<>();
        for (String collection : collections.all()) {
            QueryPoints.Builder query = QueryPoints.newBuilder()
                    .setQuery(QueryFactory.nearest(terms.values(), terms.indices())).setUsing(ChunkPayload.SPARSE_VECTOR);
            if (request.minScore() != null) { // raw BM25 scores: the floor is sent as it is, widened against float32
                query.setScoreThreshold(QdrantMetric.Threshold.atLeast(request.minScore()).widened().orElseThrow());
            }
            hits.addAll(ranked(collection, namespace, query, translation, request, raw -> raw));
        }
        return cut(hits, request);
    }

    /**
     * The best hits of one collection in contract order. Fetches more than topK so equal scores at the cut are settled by
     * chunk id; a filter that is not exact is re-checked on every hit, fetching more (up to clientFilterMaxPoints) until
     * enough pass or the collection has no more.
     */
    private List<ScoredChunk> ranked(String collection, Namespace namespace, QueryPoints.Builder query, FilterTranslator.Translation translation,
                                     SearchRequest request, DoubleUnaryOperator toContractScore) {
        int wanted = request.topK() + Math.min(request.topK(), 100);
        int limit = wanted;
        String returned = CollectionSchema.returnedVector(settings.metric());
        query.setCollectionName(collection).setFilter(translation.filter())
                .setWithPayload(WithPayloadSelectorFactory.enable(true))
                .setWithVectors(request.includeEmbeddings() ? WithVectorsSelectorFactory.include(List.of(returned))
                        : WithVectorsSelectorFactory.enable(false));
        settings.routing().selectorFor(namespace.tenant()).ifPresent(query::setShardKeySelector);
        while (true) {
            query.setLimit(limit).setParams(SearchParams.newBuilder().setHnswEf(Math.max(settings.efSearch(), limit))
                    .setExact(settings.exactSearch()).build());
            List<ScoredPoint> points = await("search " + collection, client.queryAsync(query.build()));
            List<ScoredChunk> hits = new ArrayList<>(points.size());
            for (ScoredPoint point : points) {
                Chunk chunk = ChunkPayload.decode(point.getPayloadMap());
                if (!translation.exact() && !request.filter().matches(chunk.metadata())) {
                    continue;
                }
                double score = toContractScore.applyAsDouble(point.getScore());
                if (request.minScore() != null && score < request.minScore()) {
                    continue;
                }
                float[] embedding = request.includeEmbeddings() ? vectorOf(point.getVectors().getVectors().getVectorsMap().get(returned)) : null;
                hits.add(new ScoredChunk(chunk, score, embedding));
            }
            if (translation.exact() || points.size() < limit || hits.size() >= wanted) {
                return hits;
            }
            if (limit >= settings.clientFilterMaxPoints()) {
                throw tooManyToCheck(collection);
            }
            limit = (int) Math.min((long) limit * 4, settings.clientFilterMaxPoints());
        }
    }

    private static List<ScoredChunk> cut(List<ScoredChunk> hits, SearchRequest request) {
        return hits.stream().sorted(CONTRACT_ORDER).limit(request.topK()).toList();
    }

    private static float[] vectorOf(VectorOutput output) {
        if (output == null) {
            return null;
        }
        List<Float> data = VectorOutputHelper.getDenseVector(output).getDataList();
        float[] vector = new float[data.size()];
        for (int i = 0; i < vector.length; i++) {
            vector[i] = data.get(i);
        }
        return vector;
    }

    // ------------------------------------------------------------------------------------------------ reads

    @Override
    public List<Chunk> documentChunks(Namespace namespace, String documentId) {
        requireOpen();
        List<Chunk> chunks = new ArrayList<>();
        for (String collection : collections.all()) {
            scroll(collection, namespace.tenant(), FilterTranslator.document(namespace, documentId), WithPayloadSelectorFactory.enable(true),
                    point -> chunks.add(ChunkPayload.decode(point.getPayloadMap())));
        }
        chunks.sort(Comparator.comparingInt(Chunk::index).thenComparing(Chunk::id));
        return chunks;
    }

    @Override
    public ChunkPage list(Namespace namespace, String afterId, int limit) {
        requireOpen();
        if (limit < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + limit);
        }
        List<ListSnapshots.Entry> sorted = snapshots.entries(namespace, afterId, () -> chunkIds(namespace));
        int position = ListSnapshots.after(sorted, afterId);
        List<Chunk> page = new ArrayList<>();
        while (page.size() < limit && position < sorted.size()) {
            List<ListSnapshots.Entry> slice = sorted.subList(position, Math.min(sorted.size(), position + limit - page.size()));
            position += slice.size();
            page.addAll(fetch(namespace, slice)); // chunks deleted since the snapshot are skipped
        }
        String next = position < sorted.size() && !page.isEmpty() ? page.get(page.size() - 1).id() : null;
        return new ChunkPage(page, next);
    }

    private List<ListSnapshots.Entry> chunkIds(Namespace namespace) {
        List<ListSnapshots.Entry> ids = new ArrayList<>();
        for (String collection : collections.all()) {
            scroll(collection, namespace.tenant(), FilterTranslator.namespace(namespace),
                    WithPayloadSelectorFactory.include(List.of(ChunkPayload.CHUNK_ID)),
                    point -> ids.add(new ListSnapshots.Entry(ChunkPayload.chunkId(point.getPayloadMap()), collection)));
        }
        return ids;
    }

    /** The chunks of these entries, in their order. */
    private List<Chunk> fetch(Namespace namespace, List<ListSnapshots.Entry> entries) {
        Map<String, List<PointId>> byCollection = new LinkedHashMap<>();
        for (ListSnapshots.Entry entry : entries) {
            byCollection.computeIfAbsent(entry.collection(), c -> new ArrayList<>())
                    .add(PointIdFactory.id(PointIds.of(namespace, entry.chunkId())));
        }
        Map<String, Chunk> found = new LinkedHashMap<>();
        byCollection.forEach((collection, ids) -> {
            GetPoints.Builder get = GetPoints.newBuilder().setCollectionName(collection).addAllIds(ids)
                    .setWithPayload(WithPayloadSelectorFactory.enable(true)).setWithVectors(WithVectorsSelectorFactory.enable(false));
            settings.routing().selectorFor(namespace.tenant()).ifPresent(get::setShardKeySelector);
            for (RetrievedPoint point : await("read points of " + collection, client.retrieveAsync(get.build(), settings.timeout()))) {
                Chunk chunk = ChunkPayload.decode(point.getPayloadMap());
                found.put(chunk.id(), chunk);
            }
        });
        List<Chunk> ordered = new ArrayList<>(entries.size());
        for (ListSnapshots.Entry entry : entries) {
            Chunk chunk = found.get(entry.chunkId());
            if (chunk != null) {
                ordered.add(chunk);
            }
        }
        return ordered;
    }

    @Override
    public long count(Namespace namespace, MetadataFilter filter) {
        requireOpen();
        FilterTranslator.Translation translation = FilterTranslator.translate(namespace, filter, null);
        if (translation.matchesNothing()) {
            return 0;
        }
        long total = 0;
        for (String collection : collections.all()) {
            if (translation.exact()) {
                total += count(collection, namespace.tenant(), translation.filter());
            } else {
                long[] matching = {0};
                scrollChecked(collection, namespace.tenant(), translation, filter, point -> matching[0]++);
                total += matching[0];
            }
        }
        return total;
    }

    private long count(String collection, String tenant, Filter filter) {
        CountPoints.Builder count = CountPoints.newBuilder().setCollectionName(collection).setFilter(filter).setExact(true);
        settings.routing().selectorFor(tenant).ifPresent(count::setShardKeySelector);
        return await("count points of " + collection, client.grpcClient().points().count(count.build())).getResult().getCount();
    }

    /** Scrolls the translation's superset and hands on the points that really match, reading at most clientFilterMaxPoints. */
    private void scrollChecked(String collection, String tenant, FilterTranslator.Translation translation, MetadataFilter filter,
                               Consumer<RetrievedPoint> matching) {
        long[] read = {0};
        scroll(collection, tenant, translation.filter(), WithPayloadSelectorFactory.include(List.of(ChunkPayload.META, ChunkPayload.META_KEYS)),
                point -> {
                    if (++read[0] > settings.clientFilterMaxPoints()) {
                        throw tooManyToCheck(collection);
                    }
                    if (filter.matches(ChunkPayload.metadata(point.getPayloadMap()))) {
                        matching.accept(point);
                    }
                });
    }

    private InvalidInputException tooManyToCheck(String collection) {
        return new InvalidInputException("the filter ranges over strings, which Qdrant cannot evaluate, and selects more than "
                + settings.clientFilterMaxPoints() + " chunks of " + collection + " for the store to check (" + QdrantOptions.CLIENT_FILTER_MAX_POINTS
                + "); narrow it with a condition Qdrant can evaluate");
    }

    private void scroll(String collection, String tenant, Filter filter, WithPayloadSelector payload, Consumer<RetrievedPoint> each) {
        ScrollPoints.Builder scroll = ScrollPoints.newBuilder().setCollectionName(collection).setFilter(filter).setLimit(SCROLL_PAGE)
                .setWithPayload(payload).setWithVectors(WithVectorsSelector.newBuilder().setEnable(false).build());
        settings.routing().selectorFor(tenant).ifPresent(scroll::setShardKeySelector);
        while (true) {
            ScrollResponse page = await("scroll " + collection, client.scrollAsync(scroll.build()));
            page.getResultList().forEach(each);
            if (!page.hasNextPageOffset()) {
                return;
            }
            scroll.setOffset(page.getNextPageOffset());
        }
    }

    // ------------------------------------------------------------------------------------------------ lifecycle

    @Override
    public void checkHealth() {
        requireOpen();
        await("answer a health check", client.healthCheckAsync());
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            client.close();
        }
    }

    private void requireOpen() {
        if (closed) {
            throw new IllegalStateException("the Qdrant store for " + settings.endpoint() + " is closed");
        }
    }

    private <T> T await(String what, Future<T> call) {
        return QdrantCalls.await(settings.endpoint(), what, call);
    }

    private static boolean isZero(float[] vector) {
        for (float v : vector) {
            if (v != 0) {
                return false;
            }
        }
        return true;
    }
}
