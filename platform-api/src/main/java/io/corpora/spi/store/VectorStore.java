package io.corpora.spi.store;

import io.corpora.spi.Chunk;
import io.corpora.spi.EmbeddedChunk;
import io.corpora.spi.MetadataFilter;
import io.corpora.spi.Namespace;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Where chunks and their vectors live. Every read, write and delete names its {@link Namespace}: a store
 * must never return, change or delete a chunk of another namespace, even when ids are equal.
 *
 * <p>Contract (checked by the {@code VectorStoreContract} test kit every store plugin runs):
 * <ul>
 *   <li>upsert is by chunk id within the namespace; the last write wins; duplicate ids in one call keep the last;</li>
 *   <li>search results are sorted by descending score, ties by chunk id, scores finite;</li>
 *   <li>{@link SearchRequest#minScore()} excludes hits before the top-K cut (so fewer, even zero, may return);</li>
 *   <li>the {@link MetadataFilter} semantics are exactly those of {@link MetadataFilter#matches};</li>
 *   <li>a search with an embedder id sees only chunks stamped with it ({@link io.corpora.spi.ReservedKeys#EMBEDDER}).</li>
 * </ul>
 * Implementations are thread-safe.
 *
 * <p><b>Failures</b> ({@link io.corpora.spi.PluginException}): a value the backend cannot hold (a vector of another
 * width, metadata over its limits) is an {@link io.corpora.spi.InvalidInputException} (caller error, 400); an
 * unreachable, overloaded or timed-out backend a {@code PluginException} of kind
 * {@link io.corpora.spi.FailureKind#TRANSIENT} (writes are idempotent by id, so the server may retry them); a
 * collection in an unusable state (created with another width or metric, missing privileges) one of kind
 * {@link io.corpora.spi.FailureKind#PERMANENT}. Any other exception is treated as transient.
 */
public interface VectorStore extends AutoCloseable {

    Set<StoreCapability> capabilities();

    /** Inserts or replaces chunks by id; durable when the call returns. */
    void upsert(Namespace namespace, List<EmbeddedChunk> chunks);

    List<ScoredChunk> search(Namespace namespace, SearchRequest request);

    /** Deletes the given chunk ids; returns how many existed. */
    int deleteChunks(Namespace namespace, Collection<String> chunkIds);

    /** Deletes every chunk of a document (all versions); returns how many existed. */
    int deleteDocument(Namespace namespace, String documentId);

    /** Deletes every chunk matching the filter; returns how many existed. */
    int deleteWhere(Namespace namespace, MetadataFilter filter);

    /** Deletes the whole namespace. */
    void deleteNamespace(Namespace namespace);

    /**
     * Deletes everything this store holds of a tenant, in every partition, including partitions nobody has named to it
     * in this process (a purge derives nothing from the tenant's current definition). Returns false, having deleted
     * nothing, when the store cannot enumerate a tenant's data: the caller then deletes each namespace it knows of with
     * {@link #deleteNamespace}. Idempotent. Default: false. Since SPI 1.2.
     */
    default boolean deleteTenant(String tenantId) {
        return false;
    }

    /**
     * Closes what this store holds open for the tenant (index writers and readers, file handles, caches), keeping every
     * durable write: the next call on any of its namespaces reopens them and sees all of it. The platform calls this when
     * the tenant leaves its working set (idle, least recently used, or INACTIVE), with no call on the tenant in flight
     * and none started until this returns. A store with nothing per tenant to close keeps the default, which does
     * nothing. Since SPI 1.3.
     */
    default void releaseTenant(String tenantId) {}

    /**
     * Moves the tenant's data out of the serving location into the store's offload location (e.g. compressed), holding
     * nothing of it open; returns false, having changed nothing, when this store cannot offload. The platform calls it with
     * no call on the tenant in flight and none started until {@link #restoreTenant} has run. Since SPI 1.3.
     */
    default boolean offloadTenant(String tenantId) {
        return false;
    }

    /** Brings an offloaded tenant's data back where calls find it; does nothing when none is offloaded. Since SPI 1.3. */
    default void restoreTenant(String tenantId) {}

    /**
     * An opaque token naming every write to this store that has returned so far (e.g. a database's log position after
     * the commit), for read-your-writes: a later {@link SearchRequest#consistencyToken() search carrying it} sees all
     * of them. Null, the default, when every search already sees every returned write (no replicas), so there is
     * nothing to wait for. Since SPI 1.4.
     */
    default String consistencyToken(Namespace namespace) {
        return null;
    }

    /**
     * The stored vectors of the given chunks of the namespace, by chunk id (chunks without a vector, or unknown ids, are
     * absent), so a corpus can be copied to another store without embedding it again (a store relocation). Empty, the
     * default, when this store cannot return its vectors: the caller then embeds the chunk texts again. Since SPI 1.4.
     */
    default Optional<Map<String, float[]>> storedVectors(Namespace namespace, Collection<String> chunkIds) {
        return Optional.empty();
    }

    /** Chunks of one document, by index. */
    List<Chunk> documentChunks(Namespace namespace, String documentId);

    /** Pages through a namespace in chunk-id order, starting after {@code afterId} (null: from the start). */
    ChunkPage list(Namespace namespace, String afterId, int limit);

    /** How many chunks of the namespace match the filter. */
    long count(Namespace namespace, MetadataFilter filter);

    /** Throws if the store cannot serve (for readiness checks); cheap. */
    default void checkHealth() {}

    /** Releases resources; committed data survives. */
    @Override
    void close();
}
