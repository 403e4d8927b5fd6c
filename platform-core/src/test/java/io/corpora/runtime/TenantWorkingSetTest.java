package io.corpora.runtime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.testkit.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** The working set's bound, idle timeout and leases, with a manual clock and a closer that records what it closed. */
class TenantWorkingSetTest {

    private final AtomicLong clock = new AtomicLong();
    private final List<String> closed = new CopyOnWriteArrayList<>();

    private TenantWorkingSet workingSet(int max, Duration idle) {
        return new TenantWorkingSet(max, idle, clock::get, closed::add);
    }

    private void advance(Duration by) {
        clock.addAndGet(by.toNanos());
    }

    @Test
    void theLeastRecentlyUsedTenantBeyondTheBoundIsClosed() {
        TenantWorkingSet set = workingSet(3, Duration.ofHours(1));
        for (String tenant : List.of("a", "b", "c")) {
            set.lease(tenant).close();
            advance(Duration.ofSeconds(1));
        }
        set.lease("a").close(); // a is now the most recently used; b the least
        advance(Duration.ofSeconds(1));

        set.lease("d").close();

        assertEquals(List.of("b"), closed);
        assertEquals(3, set.size());
        assertFalse(set.isOpen("b"));
        assertTrue(set.isOpen("a") && set.isOpen("c") && set.isOpen("d"));
    }

    @Test
    void runIfOpenNeitherOpensNorCountsAsAUseAndHoldsTheTenantOpenMeanwhile() {
        TenantWorkingSet set = workingSet(2, Duration.ofMinutes(1));
        assertFalse(set.runIfOpen("a", () -> { throw new AssertionError("must not run for a tenant not open"); }));
        assertFalse(set.isOpen("a"), "not opened by it");

        set.lease("a").close();
        advance(Duration.ofSeconds(1));
        set.lease("b").close();
        advance(Duration.ofSeconds(1));
        assertTrue(set.runIfOpen("a", () -> { }));
        set.lease("c").close();
        assertEquals(List.of("a"), closed, "still the least recently used: runIfOpen is no use");

        advance(Duration.ofMinutes(2));
        assertTrue(set.runIfOpen("b", () -> {
            assertEquals(1, set.closeIdle());
            assertEquals(List.of("a", "c"), closed, "the held tenant is not closed while the action runs, the other idle one is");
        }));
        assertEquals(1, set.closeIdle(), "idle still counts from its last use, not from runIfOpen");
        assertEquals(List.of("a", "c", "b"), closed);
    }

    @Test
    void aTenantInUseIsNeverEvictedAndTheBoundIsRestoredWhenItIsReleased() {
        TenantWorkingSet set = workingSet(1, Duration.ofHours(1));
        TenantWorkingSet.Lease a = set.lease("a");
        advance(Duration.ofSeconds(1));
        TenantWorkingSet.Lease b = set.lease("b");

        assertEquals(List.of(), closed, "both in use: the bound waits");
        assertEquals(2, set.size());

        a.close();
        assertEquals(List.of("a"), closed, "released while over the bound: the idle one closes");
        b.close();
        assertEquals(1, set.size());
    }

    @Test
    void idleTenantsCloseAfterTheTimeoutOnly() {
        TenantWorkingSet set = workingSet(100, Duration.ofMinutes(10));
        set.lease("old").close();
        advance(Duration.ofMinutes(6));
        set.lease("recent").close();
        TenantWorkingSet.Lease busy = set.lease("busy");
        advance(Duration.ofMinutes(5));

        assertEquals(1, set.closeIdle());
        assertEquals(List.of("old"), closed);

        advance(Duration.ofMinutes(20));
        assertEquals(1, set.closeIdle(), "a tenant with a lease out is not idle, however long the lease");
        assertEquals(List.of("old", "recent"), closed);
        busy.close();
    }

    @Test
    void anExplicitCloseOfATenantInUseHappensAtItsLastRelease() {
        TenantWorkingSet set = workingSet(10, Duration.ofHours(1));
        TenantWorkingSet.Lease first = set.lease("t");
        TenantWorkingSet.Lease second = set.lease("t");

        set.close("t");
        assertEquals(List.of(), closed);
        first.close();
        first.close(); // releasing twice counts once
        assertEquals(List.of(), closed);
        second.close();
        assertEquals(List.of("t"), closed);
        assertFalse(set.isOpen("t"));
    }

    @Test
    void aLeaseOnATenantBeingClosedWaitsForTheCloseAndOthersDoNot() throws Exception {
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch finishClose = new CountDownLatch(1);
        TenantWorkingSet set = new TenantWorkingSet(10, Duration.ofHours(1), clock::get, tenant -> {
            closing.countDown();
            await(finishClose);
            closed.add(tenant);
        });
        set.lease("slow").close();
        set.lease("other").close();
        ExecutorService threads = Executors.newCachedThreadPool();
        try {
            Future<?> closer = threads.submit(() -> set.close("slow"));
            assertTrue(closing.await(5, TimeUnit.SECONDS));

            Future<Boolean> sameTenant = leaseOnAnotherThread(set, threads, "slow");
            try (TenantWorkingSet.Lease lease = set.lease("other")) {
                assertTrue(set.isOpen("other"), "another tenant is served while one closes");
            }
            assertFalse(sameTenant.isDone(), "the same tenant waits for its close");

            finishClose.countDown();
            closer.get(5, TimeUnit.SECONDS);
            assertTrue(sameTenant.get(5, TimeUnit.SECONDS), "the lease was granted after the close, on a reopened tenant");
            assertTrue(set.isOpen("slow"));
        } finally {
            threads.shutdownNow();
        }
    }

    /** An eviction's close runs on the evictions executor: the lease that pushed the set over its bound does not wait for it. */
    @Test
    void aLeaseBeyondTheBoundDoesNotWaitForTheCloseItCauses() throws Exception {
        CountDownLatch closing = new CountDownLatch(1);
        CountDownLatch finishClose = new CountDownLatch(1);
        ExecutorService evictions = Executors.newSingleThreadExecutor();
        ExecutorService threads = Executors.newCachedThreadPool();
        TenantWorkingSet set = new TenantWorkingSet(1, Duration.ofHours(1), clock::get, tenant -> {
            closing.countDown();
            await(finishClose); // a Lucene index waiting for its running HNSW merge
            closed.add(tenant);
        }, evictions);
        try {
            set.lease("slow").close();
            advance(Duration.ofSeconds(1));
            Future<?> other = threads.submit(() -> set.lease("next").close()); // evicts "slow"
            assertTrue(closing.await(5, TimeUnit.SECONDS), "the evicted tenant's close started");
            other.get(5, TimeUnit.SECONDS); // returned while that close is still under way
            assertEquals(List.of(), closed);
            assertTrue(set.isOpen("slow"), "it holds its resources until its close ends");

            Future<Boolean> sameTenant = leaseOnAnotherThread(set, threads, "slow");
            assertFalse(sameTenant.isDone(), "the evicted tenant's next lease waits for its close");
            finishClose.countDown();
            assertTrue(sameTenant.get(5, TimeUnit.SECONDS), "granted after the close, on a reopened tenant");
        } finally {
            finishClose.countDown();
            threads.shutdownNow();
            evictions.shutdownNow();
        }
    }

    /** A tenant closing in the background leaves room in the bound: its close does not make the set evict another one too. */
    @Test
    void aTenantClosingInTheBackgroundNoLongerCountsAgainstTheBound() throws Exception {
        CountDownLatch finishClose = new CountDownLatch(1);
        ExecutorService evictions = Executors.newSingleThreadExecutor();
        TenantWorkingSet set = new TenantWorkingSet(2, Duration.ofHours(1), clock::get, tenant -> {
            if (tenant.equals("a")) {
                await(finishClose);
            }
            closed.add(tenant);
        }, evictions);
        try {
            for (String tenant : List.of("a", "b", "c")) { // "c" evicts "a", whose close hangs
                set.lease(tenant).close();
                advance(Duration.ofSeconds(1));
            }
            assertTrue(set.isOpen("b") && set.isOpen("c"), "b and c fill the bound; a is closing");
            assertEquals(3, set.size(), "a still holds its resources");

            set.lease("d").close(); // over the bound again: evicts b, the least recently used of those not closing
            finishClose.countDown();
            evictions.shutdown();
            assertTrue(evictions.awaitTermination(5, TimeUnit.SECONDS));
            assertEquals(List.of("a", "b"), closed);
            assertEquals(2, set.size());
            assertTrue(set.isOpen("c") && set.isOpen("d"));
        } finally {
            finishClose.countDown();
            evictions.shutdownNow();
        }
    }

    /**
     * Many threads lease random tenants while the bound and an idle sweep close them: the closer never runs on a tenant with
     * a lease out, every lease is matched, and the set ends within its bound.
     */
    @Test
    void underConcurrencyACloseNeverOverlapsAUseOfTheSameTenant() throws Exception {
        Map<String, AtomicInteger> inUse = new ConcurrentHashMap<>();
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger closes = new AtomicInteger();
        TenantWorkingSet set = new TenantWorkingSet(4, Duration.ofNanos(1), System::nanoTime, tenant -> {
            if (inUse.computeIfAbsent(tenant, t -> new AtomicInteger()).get() != 0) {
                violations.incrementAndGet();
            }
            closes.incrementAndGet();
        });
        ExecutorService threads = Executors.newFixedThreadPool(8);
        List<Future<?>> workers = new ArrayList<>();
        for (int w = 0; w < 8; w++) {
            workers.add(threads.submit(() -> {
                for (int i = 0; i < 5_000; i++) {
                    String tenant = "t" + ThreadLocalRandom.current().nextInt(16);
                    try (TenantWorkingSet.Lease lease = set.lease(tenant)) {
                        AtomicInteger count = inUse.computeIfAbsent(tenant, t -> new AtomicInteger());
                        count.incrementAndGet();
                        Thread.onSpinWait();
                        count.decrementAndGet();
                    }
                    if (i % 100 == 0) {
                        set.closeIdle();
                    }
                }
                return null;
            }));
        }
        for (Future<?> worker : workers) {
            worker.get(60, TimeUnit.SECONDS);
        }
        threads.shutdown();

        assertEquals(0, violations.get(), "a tenant was closed while in use");
        assertTrue(closes.get() > 0, "the bound made the set close tenants");
        assertTrue(set.size() <= 4, "within the bound once idle: " + set.size());
    }

    @Test
    void aBoundOrTimeoutThatCannotWorkIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> workingSet(0, Duration.ofMinutes(1)));
        assertThrows(IllegalArgumentException.class, () -> workingSet(1, Duration.ZERO));
    }

    /**
     * Leases {@code tenant} on one of {@code threads}, returning once that lease is granted or waiting; the future tells
     * whether the lease saw the tenant's close finished.
     */
    private Future<Boolean> leaseOnAnotherThread(TenantWorkingSet set, ExecutorService threads, String tenant) {
        AtomicReference<Thread> leasing = new AtomicReference<>();
        Future<Boolean> lease = threads.submit(() -> {
            leasing.set(Thread.currentThread());
            try (TenantWorkingSet.Lease held = set.lease(tenant)) {
                return closed.contains(tenant);
            }
        });
        Poll.until("the lease on '" + tenant + "' granted or waiting", Duration.ofSeconds(10),
                () -> lease.isDone() || (leasing.get() != null && leasing.get().getState() == Thread.State.WAITING));
        return lease;
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
