package io.corpora.engine.embed;

import io.corpora.spi.embed.Embedder;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToLongFunction;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The server's persistent cache of document vectors, in front of every tenant's embedder at ingest, so that a rebuild,
 * a re-ingest or a relocation of unchanged chunk texts skips the model ({@code corpora.ingest.embeddingCache.dir}; off
 * unless set). One {@link DiskEmbeddingCache} per embedding model, opened when a tenant first embeds with it; a key is
 * the tenant, the embedder settings that change document vectors and the exact text embedded, so a vector never
 * crosses tenants (a writer could otherwise time its ingest to learn whether another tenant holds a text), settings or
 * models. Queries never read or fill it ({@link QueryEmbeddingCache} holds those, in memory).
 */
public final class DocumentEmbeddingCache implements AutoCloseable {

    static final String DOCUMENT = "document";

    private static final Logger LOG = Logger.getLogger(DocumentEmbeddingCache.class.getName());

    private final Path directory;
    private final long maxBytes;
    /** By fingerprint id; empty when the model's cache could not be opened (its tenants embed without one). */
    private final Map<String, Optional<DiskEmbeddingCache>> models = new ConcurrentHashMap<>();

    private DocumentEmbeddingCache(Path directory, long maxBytes) {
        this.directory = directory;
        this.maxBytes = maxBytes;
    }

    /** No cache: {@link #wrap} returns the embedder itself. */
    public static DocumentEmbeddingCache disabled() {
        return new DocumentEmbeddingCache(null, 0);
    }

    /** @param maxBytes on disk per embedding model, at least 1 MiB */
    public static DocumentEmbeddingCache at(Path directory, long maxBytes) {
        if (maxBytes < DiskEmbeddingCache.MIN_MAX_BYTES) {
            throw new IllegalArgumentException("corpora.ingest.embeddingCache.maxBytes must be at least " + DiskEmbeddingCache.MIN_MAX_BYTES
                    + ", got " + maxBytes);
        }
        return new DocumentEmbeddingCache(Objects.requireNonNull(directory, "directory"), maxBytes);
    }

    public boolean enabled() {
        return directory != null;
    }

    /**
     * The settings of an embedder's configuration that make its document vectors: all but the query instruction, which
     * only queries carry. Sorted, so one set of settings is one key space; "" for none.
     */
    public static String documentSettings(Map<String, String> embedderConfig) {
        Map<String, String> documents = new TreeMap<>(embedderConfig);
        documents.remove("queryInstruction");
        return documents.isEmpty() ? "" : documents.toString();
    }

    /** The key space of {@code tenant}'s document vectors under these embedder settings (the bench fills it ahead of ingest). */
    public static DiskEmbeddingCache.Space space(String tenant, Map<String, String> embedderConfig) {
        return new DiskEmbeddingCache.Space(tenant, DOCUMENT, documentSettings(embedderConfig));
    }

    /** {@code embedder} with its document batches going through the cache under {@code tenant}'s key space; itself when disabled. */
    public Embedder wrap(String tenant, Map<String, String> embedderConfig, Embedder embedder) {
        return enabled() ? new DocumentCachingEmbedder(embedder, this, space(tenant, embedderConfig)) : embedder;
    }

    List<float[]> embedDocuments(DiskEmbeddingCache.Space space, Embedder model, List<String> texts) {
        Optional<DiskEmbeddingCache> cache = models.computeIfAbsent(model.fingerprint().id(), id -> {
            try {
                return Optional.of(DiskEmbeddingCache.open(directory, model.fingerprint(), maxBytes));
            } catch (UncheckedIOException | IllegalArgumentException e) {
                LOG.log(Level.WARNING, "no document embedding cache for " + id + "; its tenants embed every chunk", e);
                return Optional.empty();
            }
        });
        return cache.isPresent() ? cache.get().embed(space, texts, model::embedDocuments) : model.embedDocuments(texts);
    }

    /** Chunk texts whose vector came from the cache, since start. */
    public long hits() {
        return sum(DiskEmbeddingCache::hits);
    }

    /** Chunk texts the cache did not hold, so the model embedded them. */
    public long misses() {
        return sum(DiskEmbeddingCache::misses);
    }

    public long entries() {
        return sum(DiskEmbeddingCache::entries);
    }

    public long bytes() {
        return sum(DiskEmbeddingCache::bytes);
    }

    private long sum(ToLongFunction<DiskEmbeddingCache> value) {
        return models.values().stream().flatMap(Optional::stream).mapToLong(value).sum();
    }

    @Override
    public void close() {
        models.values().forEach(cache -> cache.ifPresent(DiskEmbeddingCache::close));
        models.clear();
    }
}
