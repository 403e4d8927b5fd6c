package io.corpora.store.pgvector;

import io.corpora.spi.Namespace;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Remembers, per namespace and embedder, whether it is within one bound of rows — one instance per bound: small enough for
 * an exact search ({@code exactSearchMaxRows}), or for the keyword leg to read every row once — so that a search does not
 * count up to the bound + 1 rows first (the largest cost of a search on a big tenant). This store's own writes forget a
 * namespace at once; another writer's (another server, a replica's replay) are seen after at most {@code ttlMillis}.
 *
 * <p>Staleness is asymmetric: a stale "small" (the namespace grew elsewhere) searches exactly, correct and only slower; a stale
 * "large" (it shrank elsewhere) searches through HNSW, where a small tenant of a shared table may lose recall. Both last at
 * most the TTL. A verdict is not kept if one of this store's writes ended while it was counted: that count may have missed it.
 */
final class NamespaceSizes {

    /** Bounds the memory of a fleet of tenants that each search once: the map is dropped and refilled past it. */
    private static final int MAX_ENTRIES = 100_000;

    private record NamespaceKey(String tenant, String partition) {}

    private record Verdict(boolean small, long expiresAtNanos) {}

    private final long ttlNanos;
    private final LongSupplier nanoClock;
    /**
     * Verdicts by namespace, then by embedder id (null: any embedder), so a write forgets its namespace in one removal
     * instead of a scan of every verdict. An inner map is never changed once published: {@link #remember} replaces it.
     */
    private final Map<NamespaceKey, Map<String, Verdict>> verdicts = new ConcurrentHashMap<>();
    /** How many verdicts the inner maps hold together, for {@link #MAX_ENTRIES}. */
    private final AtomicInteger entries = new AtomicInteger();
    /** This store's finished writes: a verdict is kept only if none finished while it was counted. */
    private final AtomicLong writes = new AtomicLong();

    NamespaceSizes(long ttlMillis, LongSupplier nanoClock) {
        this.ttlNanos = ttlMillis * 1_000_000L;
        this.nanoClock = nanoClock;
    }

    /** The number of writes so far, to pass back to {@link #remember}. */
    long writesSoFar() {
        return writes.get();
    }

    /** The remembered verdict, or null when unknown or expired (the caller counts). */
    Boolean isSmall(Namespace namespace, String embedderId) {
        Map<String, Verdict> byEmbedder = verdicts.get(key(namespace));
        Verdict verdict = byEmbedder == null ? null : byEmbedder.get(embedderId);
        return verdict == null || nanoClock.getAsLong() - verdict.expiresAtNanos() >= 0 ? null : verdict.small();
    }

    void remember(Namespace namespace, String embedderId, boolean small, long writesBeforeCount) {
        if (ttlNanos <= 0 || writes.get() != writesBeforeCount) {
            return;
        }
        if (entries.get() >= MAX_ENTRIES) {
            verdicts.clear();
            entries.set(0);
        }
        Verdict verdict = new Verdict(small, nanoClock.getAsLong() + ttlNanos);
        verdicts.compute(key(namespace), (key, byEmbedder) -> {
            Map<String, Verdict> next = byEmbedder == null ? new HashMap<>() : new HashMap<>(byEmbedder);
            if (next.put(embedderId, verdict) == null) {
                entries.incrementAndGet();
            }
            return next;
        });
    }

    /** After a write to the namespace (committed or not): whatever was counted before it may no longer hold. */
    void forget(Namespace namespace) {
        writes.incrementAndGet();
        drop(key(namespace));
    }

    /** After a write to every partition of the tenant. */
    void forgetTenant(String tenant) {
        writes.incrementAndGet();
        for (NamespaceKey key : verdicts.keySet()) {
            if (key.tenant().equals(tenant)) {
                drop(key);
            }
        }
    }

    private void drop(NamespaceKey key) {
        Map<String, Verdict> dropped = verdicts.remove(key);
        if (dropped != null) {
            entries.addAndGet(-dropped.size());
        }
    }

    private static NamespaceKey key(Namespace namespace) {
        return new NamespaceKey(namespace.tenant(), namespace.partitionKey());
    }
}
