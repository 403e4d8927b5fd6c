package io.corpora.store.qdrant;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.corpora.spi.Namespace;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** The sorted-id snapshots behind {@code list}: reused by a traversal's later pages only, and only while fresh. */
class ListSnapshotsTest {

    private final AtomicLong now = new AtomicLong();
    private final AtomicInteger loads = new AtomicInteger();
    private final List<ListSnapshots.Entry> stored = new ArrayList<>(List.of(
            new ListSnapshots.Entry("p02#0", "c_d8"), new ListSnapshots.Entry("p10#0", "c_d8"), new ListSnapshots.Entry("p01#0", "c_d16")));

    private List<ListSnapshots.Entry> load() {
        loads.incrementAndGet();
        return List.copyOf(stored);
    }

    @Test
    void aTraversalSortsOnceAndItsLaterPagesReuseTheSnapshot() {
        ListSnapshots snapshots = new ListSnapshots(Duration.ofSeconds(60), now::get);
        Namespace ns = Namespace.of("acme");
        List<ListSnapshots.Entry> first = snapshots.entries(ns, null, this::load);
        assertEquals(List.of("p01#0", "p02#0", "p10#0"), first.stream().map(ListSnapshots.Entry::chunkId).toList(), "Java string order");
        stored.add(new ListSnapshots.Entry("p05#0", "c_d8"));
        now.addAndGet(Duration.ofSeconds(59).toNanos());
        assertEquals(3, snapshots.entries(ns, "p01#0", this::load).size(), "a later page reuses the snapshot");
        assertEquals(1, loads.get());
        assertEquals(4, snapshots.entries(ns, null, this::load).size(), "a new traversal starts from a new snapshot");
        now.addAndGet(Duration.ofSeconds(61).toNanos());
        snapshots.entries(ns, "p01#0", this::load);
        assertEquals(3, loads.get(), "an expired snapshot is taken again");
        snapshots.invalidate(ns);
        snapshots.entries(ns, "p01#0", this::load);
        assertEquals(4, loads.get(), "a write of this store drops it");
        snapshots.entries(Namespace.of("acme", "legal"), null, this::load);
        snapshots.invalidateTenant("acme");
        snapshots.entries(Namespace.of("acme", "legal"), "x", this::load);
        snapshots.entries(ns, "x", this::load);
        assertEquals(7, loads.get(), "a purge drops every partition's snapshot");
    }

    @Test
    void aZeroTtlSortsForEveryPage() {
        ListSnapshots snapshots = new ListSnapshots(Duration.ZERO, now::get);
        snapshots.entries(Namespace.of("acme"), null, this::load);
        snapshots.entries(Namespace.of("acme"), "p01#0", this::load);
        assertEquals(2, loads.get());
    }

    @Test
    void pagingStartsAfterTheGivenIdWhetherOrNotItExists() {
        List<ListSnapshots.Entry> sorted = new ListSnapshots(Duration.ZERO, now::get).entries(Namespace.of("a"), null, this::load);
        assertEquals(0, ListSnapshots.after(sorted, null));
        assertEquals(1, ListSnapshots.after(sorted, "p01#0"));
        assertEquals(1, ListSnapshots.after(sorted, "p01#5"), "afterId need not exist");
        assertEquals(2, ListSnapshots.after(sorted, "p02#5"));
        assertEquals(0, ListSnapshots.after(sorted, "a"));
        assertEquals(3, ListSnapshots.after(sorted, "p10#0"));
    }
}
