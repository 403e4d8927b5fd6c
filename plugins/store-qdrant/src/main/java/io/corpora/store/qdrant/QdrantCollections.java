package io.corpora.store.qdrant;

import io.qdrant.client.QdrantClient;
import io.qdrant.client.ShardKeyFactory;
import io.qdrant.client.grpc.Collections.CollectionInfo;
import io.qdrant.client.grpc.Collections.CreateShardKey;
import io.qdrant.client.grpc.Collections.CreateShardKeyRequest;
import io.qdrant.client.grpc.Collections.ShardKeyDescription;
import io.qdrant.client.grpc.Points.CountPoints;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.logging.Logger;

/**
 * The store's collections on the server: created on the first write of a vector width, checked against the settings the
 * first time this process uses one (metric, width, sharding), and listed for the calls that span a whole namespace.
 */
final class QdrantCollections {

    private final QdrantClient client;
    private final QdrantSettings settings;
    private final Logger logger;
    private final Set<String> checked = ConcurrentHashMap.newKeySet();

    QdrantCollections(QdrantClient client, QdrantSettings settings, Logger logger) {
        this.client = client;
        this.settings = settings;
        this.logger = logger;
    }

    /** The collection of this width, created if it does not exist yet. */
    String forWrite(int width) {
        String name = settings.collections().forWidth(width);
        if (checked.contains(name)) {
            return name;
        }
        synchronized (this) {
            if (!await("check collection " + name, client.collectionExistsAsync(name))) {
                create(name, width);
            }
            check(name, width);
        }
        return name;
    }

    /** The collection of this width if it exists. */
    Optional<String> forRead(int width) {
        String name = settings.collections().forWidth(width);
        if (checked.contains(name)) {
            return Optional.of(name);
        }
        if (!await("check collection " + name, client.collectionExistsAsync(name))) {
            return Optional.empty();
        }
        synchronized (this) {
            check(name, width);
        }
        return Optional.of(name);
    }

    /** Every collection of this store (one per vector width written so far, by any process), checked. */
    List<String> all() {
        List<String> owned = settings.collections().owned(await("list collections", client.listCollectionsAsync()));
        for (String name : owned) {
            if (!checked.contains(name)) {
                synchronized (this) {
                    check(name, settings.collections().widthOf(name).orElseThrow());
                }
            }
        }
        return owned;
    }

    /** The widths this store holds vectors of, for a message. */
    List<Integer> widths() {
        return all().stream().map(name -> settings.collections().widthOf(name).orElseThrow()).toList();
    }

    private void create(String name, int width) {
        try {
            await("create collection " + name, client.createCollectionAsync(CollectionSchema.create(name, width, settings)));
            logger.info("created Qdrant collection " + name + " (" + settings.metric().distance + ", width " + width
                    + (settings.routing().enabled() ? ", custom sharding" : "") + ")");
        } catch (QdrantStoreException e) {
            if (!await("check collection " + name, client.collectionExistsAsync(name))) {
                throw e;
            }
            // another process created it in the meantime: check it like any existing collection
        }
    }

    /** Refuses a collection made for other settings; adds missing indexes and shard keys (both idempotent). */
    private void check(String name, int width) {
        if (checked.contains(name)) {
            return;
        }
        CollectionInfo info = await("read collection " + name, client.getCollectionInfoAsync(name));
        List<String> problems = CollectionSchema.problems(name, info, width, settings);
        if (!problems.isEmpty()) {
            throw new QdrantStoreException("Qdrant " + settings.endpoint() + ": " + String.join("; ", problems));
        }
        for (CollectionSchema.PayloadIndex index : CollectionSchema.missingIndexes(info)) {
            await("index " + name + "." + index.field(), client.createPayloadIndexAsync(name, index.field(), index.type(),
                    index.params(), true, null, settings.timeout()));
        }
        if (settings.routing().enabled()) {
            ensureShardKeys(name);
        }
        checked.add(name);
    }

    /**
     * The fallback shard, and a shard per dedicated tenant that has no chunks in the fallback yet. A dedicated tenant whose
     * chunks already sit in the shared shard is left there (a new, empty shard would hide them): it is served from the
     * shared shard until an operator promotes it with Qdrant's replicate_points (README), which the routing then follows.
     */
    private void ensureShardKeys(String name) {
        Set<String> existing = new HashSet<>();
        for (ShardKeyDescription key : await("list shard keys of " + name, client.listShardKeysAsync(name))) {
            existing.add(key.getKey().getKeyword());
        }
        List<String> toCreate = new ArrayList<>();
        if (!existing.contains(ShardRouting.FALLBACK_KEY)) {
            toCreate.add(ShardRouting.FALLBACK_KEY);
        }
        for (String tenant : settings.routing().dedicatedTenants()) {
            if (existing.contains(tenant)) {
                continue;
            }
            long shared = existing.contains(ShardRouting.FALLBACK_KEY) ? countInFallback(name, tenant) : 0;
            if (shared == 0) {
                toCreate.add(tenant);
            } else {
                logger.warning("tenant '" + tenant + "' is configured as dedicated but " + shared + " of its chunks are in the shared "
                        + "shard of " + name + ": it stays there until promoted with replicate_points (see the store's README)");
            }
        }
        for (String key : toCreate) {
            await("create shard key " + key + " in " + name, client.createShardKeyAsync(CreateShardKeyRequest.newBuilder()
                    .setCollectionName(name)
                    .setRequest(CreateShardKey.newBuilder().setShardKey(ShardKeyFactory.shardKey(key)).build()).build()));
        }
    }

    private long countInFallback(String name, String tenant) {
        CountPoints.Builder count = CountPoints.newBuilder().setCollectionName(name).setFilter(FilterTranslator.tenant(tenant)).setExact(true);
        settings.routing().fallbackOnly().ifPresent(count::setShardKeySelector);
        return await("count tenant " + tenant + " in " + name, client.grpcClient().points().count(count.build())).getResult().getCount();
    }

    private <T> T await(String what, java.util.concurrent.Future<T> call) {
        return QdrantCalls.await(settings.endpoint(), what, call);
    }
}
