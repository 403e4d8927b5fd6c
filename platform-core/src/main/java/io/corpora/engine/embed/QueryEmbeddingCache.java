package io.corpora.engine.embed;

import io.corpora.spi.embed.Embedder;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * A bounded LRU of query vectors, so a repeated query skips the model. An entry is keyed by its <em>scope</em> (the
 * tenant whose embedder computed it), the embedder's fingerprint id and the query text: a vector is never served to
 * another fingerprint (incomparable vectors) nor to another tenant (whose latency would otherwise tell it what others
 * asked). One cache serves the whole server so its bound is one number ({@code corpora.retrieve.queryCache.entries});
 * each entry costs about {@code 4 × dimension} bytes plus its query text. Thread-safe; vectors are copied in and out,
 * so a caller that mutates its array cannot poison the cache.
 */
public final class QueryEmbeddingCache {

    /** Enough for the hot queries of many tenants: 10,000 bge-small vectors are ~16 MB. */
    public static final int DEFAULT_ENTRIES = 10_000;

    private record Key(String scope, String fingerprintId, String query) {}

    private final int maxEntries;
    private final Map<Key, float[]> entries;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder evictions = new LongAdder();

    /** @param maxEntries the bound; 0 disables the cache (every query goes to the model) */
    public QueryEmbeddingCache(int maxEntries) {
        if (maxEntries < 0) {
            throw new IllegalArgumentException("the query cache size must be >= 0, got " + maxEntries);
        }
        this.maxEntries = maxEntries;
        this.entries = new LinkedHashMap<>(Math.min(maxEntries, 1024), 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Key, float[]> eldest) {
                if (size() > QueryEmbeddingCache.this.maxEntries) {
                    evictions.increment();
                    return true;
                }
                return false;
            }
        };
    }

    /** {@code embedder}'s queries cached under {@code scope}; the embedder itself when the cache is disabled. */
    public Embedder wrap(String scope, Embedder embedder) {
        return maxEntries == 0 ? embedder : new CachingEmbedder(embedder, this, scope);
    }

    /**
     * The query's vector from the cache, or computed by {@code embedder} and remembered. Two threads missing the same
     * query at once both compute it (the model is deterministic, so either result is the same); no lock is held while
     * the model runs.
     */
    float[] embedQuery(String scope, Embedder embedder, String query) {
        Key key = new Key(Objects.requireNonNull(scope, "scope"), embedder.fingerprint().id(), query);
        float[] cached;
        synchronized (entries) {
            cached = entries.get(key);
        }
        if (cached != null) {
            hits.increment();
            return cached.clone();
        }
        misses.increment();
        float[] vector = embedder.embedQuery(query);
        synchronized (entries) {
            entries.put(key, vector.clone());
        }
        return vector;
    }

    public int maxEntries() {
        return maxEntries;
    }

    public int size() {
        synchronized (entries) {
            return entries.size();
        }
    }

    public long hits() {
        return hits.sum();
    }

    public long misses() {
        return misses.sum();
    }

    public long evictions() {
        return evictions.sum();
    }

    /** Drops every entry (e.g. after a model file changed in place); counters keep counting. */
    public void clear() {
        synchronized (entries) {
            entries.clear();
        }
    }
}
