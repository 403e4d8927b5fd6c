package io.corpora.store.qdrant;

import io.corpora.spi.Namespace;
import java.time.Duration;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * The chunk ids of a namespace in id order, kept for the next pages of a {@code list} traversal. Qdrant scrolls in point-id
 * order and orders by numeric payload only, so the store sorts a namespace's ids itself; without a snapshot a traversal
 * of n chunks in pages of p would sort n ids n/p times. A traversal's first page (no {@code afterId}) always takes a new
 * snapshot; later pages reuse it for at most the configured time, and any write of this store to the namespace drops
 * it. Writes of other processes made during a traversal are seen by the next one.
 */
final class ListSnapshots {

    /** One chunk id and the collection (vector width) holding it. */
    record Entry(String chunkId, String collection) {}

    private record Snapshot(List<Entry> entries, long takenNanos) {}

    private static final int MAX_NAMESPACES = 8;

    private final long ttlNanos;
    private final LongSupplier clock;
    private final Map<String, Snapshot> snapshots = new LinkedHashMap<>(16, 0.75f, true) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<String, Snapshot> eldest) {
            return size() > MAX_NAMESPACES;
        }
    };

    ListSnapshots(Duration ttl, LongSupplier clock) {
        this.ttlNanos = ttl.toNanos();
        this.clock = clock;
    }

    /** The sorted ids to page through after {@code afterId}: reused while fresh, otherwise loaded (and sorted) anew. */
    List<Entry> entries(Namespace namespace, String afterId, Supplier<List<Entry>> load) {
        long now = clock.getAsLong();
        if (afterId != null && ttlNanos > 0) {
            synchronized (snapshots) {
                Snapshot cached = snapshots.get(namespace.key());
                if (cached != null && now - cached.takenNanos() <= ttlNanos) {
                    return cached.entries();
                }
            }
        }
        List<Entry> sorted = load.get().stream().sorted(Comparator.comparing(Entry::chunkId)).toList();
        if (ttlNanos > 0) {
            synchronized (snapshots) {
                snapshots.put(namespace.key(), new Snapshot(Collections.unmodifiableList(sorted), now));
            }
        }
        return sorted;
    }

    /** The position of the first id after {@code afterId} (the start for null). */
    static int after(List<Entry> sorted, String afterId) {
        if (afterId == null) {
            return 0;
        }
        int low = 0;
        int high = sorted.size();
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (sorted.get(mid).chunkId().compareTo(afterId) <= 0) {
                low = mid + 1;
            } else {
                high = mid;
            }
        }
        return low;
    }

    void invalidate(Namespace namespace) {
        synchronized (snapshots) {
            snapshots.remove(namespace.key());
        }
    }

    void invalidateTenant(String tenant) {
        synchronized (snapshots) {
            snapshots.keySet().removeIf(key -> key.equals(tenant) || key.startsWith(tenant + "~"));
        }
    }
}
