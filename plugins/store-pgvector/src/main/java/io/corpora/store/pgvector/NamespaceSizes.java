package io.corpora.store.pgvector;

import io.corpora.spi.Namespace;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Remembers whether a namespace's rows (of one embedder, or all of them) are within a bound — small enough for an exact
 * search ({@code exactSearchMaxRows}), or for the keyword leg to read every row once — so that a search does not count up
 * to the bound + 1 rows first (the largest cost of a search on a big tenant). Every bound's verdicts live here, so this
 * store's own writes forget all of a namespace's at once; another writer's (another server, a replica's replay) are seen
 * after at most {@code ttlMillis}.
 *
 * <p>Staleness is asymmetric: a stale "small" (the namespace grew elsewhere) searches exactly, correct and only slower; a stale
 * "large" (it shrank elsewhere) searches through HNSW, where a small tenant of a shared table may lose recall. Both last at
 * most the TTL. A verdict is not kept if one of this store's writes ended while it was counted: that count may have missed it.
 */
final class NamespaceSizes {

    /** Bounds the memory of a fleet of tenants that each search once: the map is dropped and refilled past it. */
    private static final int MAX_ENTRIES = 100_000;

    private record NamespaceKey(String tenant, String partition) {}

    /** What was counted: the rows of one embedder (null: all rows) against one bound. */
    private record Count(String embedderId, int maxRows) {}

    private record Verdict(boolean within, long expiresAtNanos) {}

    private final long ttlNanos;
    private final LongSupplier nanoClock;
    /**
     * Verdicts by namespace, then by what was counted, so a write forgets its namespace in one removal instead of a scan
     * of every verdict. An inner map is never changed once published: {@link #remember} replaces it.
     */
    private final Map<NamespaceKey, Map<Count, Verdict>> verdicts = new ConcurrentHashMap<>();
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

    /**
     * Whether the namespace's rows of {@code embedderId} (all rows for null) are at most {@code maxRows}, as remembered;
     * null when unknown or expired (the caller counts).
     */
    Boolean isWithin(Namespace namespace, String embedderId, int maxRows) {
        Map<Count, Verdict> byCount = verdicts.get(key(namespace));
        Verdict verdict = byCount == null ? null : byCount.get(new Count(embedderId, maxRows));
        return verdict == null || nanoClock.getAsLong() - verdict.expiresAtNanos() >= 0 ? null : verdict.within();
    }

    void remember(Namespace namespace, String embedderId, int maxRows, boolean within, long writesBeforeCount) {
        if (ttlNanos <= 0 || writes.get() != writesBeforeCount) {
            return;
        }
        if (entries.get() >= MAX_ENTRIES) {
            verdicts.clear();
            entries.set(0);
        }
        Verdict verdict = new Verdict(within, nanoClock.getAsLong() + ttlNanos);
        verdicts.compute(key(namespace), (key, byCount) -> {
            Map<Count, Verdict> next = byCount == null ? new HashMap<>() : new HashMap<>(byCount);
            if (next.put(new Count(embedderId, maxRows), verdict) == null) {
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
        Map<Count, Verdict> dropped = verdicts.remove(key);
        if (dropped != null) {
            entries.addAndGet(-dropped.size());
        }
    }

    private static NamespaceKey key(Namespace namespace) {
        return new NamespaceKey(namespace.tenant(), namespace.partitionKey());
    }
}
