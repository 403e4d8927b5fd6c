package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentRegistry.CorpusStats;
import io.corpora.controlplane.Quotas;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

class QuotaReservationsTest {

    private final QuotaReservations reservations = new QuotaReservations();

    private static CorpusStats stored(long documents, long chunks, long bytes) {
        return new CorpusStats(documents, chunks, bytes, Map.of(), Map.of());
    }

    @Test
    void documentsInFlightCountUntilTheirActivationSettlesThem() {
        Quotas fiveDocuments = new Quotas(5, 0, 0, 0, 0);
        AtomicLong documents = new AtomicLong(3);
        QuotaReservations.Growth one = new QuotaReservations.Growth(1, 2, 100);
        QuotaReservations.Reservation a = reservations.reserve("acme", fiveDocuments, () -> stored(documents.get(), 0, 0), one);
        QuotaReservations.Reservation b = reservations.reserve("acme", fiveDocuments, () -> stored(documents.get(), 0, 0), one);
        IngestException over = assertThrows(IngestException.class,
                () -> reservations.reserve("acme", fiveDocuments, () -> stored(documents.get(), 0, 0), one));
        assertEquals(429, over.status());
        assertTrue(over.getMessage().contains("6 documents; its quota is 5"), over.getMessage());

        a.close(); // a failed: its room is free again
        QuotaReservations.Reservation c = reservations.reserve("acme", fiveDocuments, () -> stored(documents.get(), 0, 0), one);
        b.settle(documents::incrementAndGet);
        c.settle(documents::incrementAndGet);
        assertEquals(5, documents.get());
        assertThrows(IngestException.class, () -> reservations.reserve("acme", fiveDocuments, () -> stored(documents.get(), 0, 0), one));
        assertEquals(0, reservations.tenantsInFlight(), "an idle tenant holds no entry, refused or settled");
    }

    /** The totals are an aggregate over the tenant's documents: read once per max age while documents are in flight, not once each. */
    @Test
    void whileDocumentsAreInFlightTheStoredTotalsAreReadOncePerMaxAge() {
        long[] now = {0};
        QuotaReservations cached = new QuotaReservations(Duration.ofSeconds(2), () -> now[0]);
        AtomicInteger reads = new AtomicInteger();
        AtomicLong documents = new AtomicLong();
        Supplier<CorpusStats> totals = () -> {
            reads.incrementAndGet();
            return stored(documents.get(), 0, 0);
        };
        Quotas fiftyOne = new Quotas(51, 0, 0, 0, 0);
        QuotaReservations.Growth one = new QuotaReservations.Growth(1, 1, 1);
        QuotaReservations.Reservation inFlight = cached.reserve("acme", fiftyOne, totals, one);
        for (int i = 0; i < 50; i++) {
            cached.reserve("acme", fiftyOne, totals, one).settle(documents::incrementAndGet);
        }
        assertEquals(1, reads.get(), "the activations here were added to the totals read first");
        assertThrows(IngestException.class, () -> cached.reserve("acme", fiftyOne, totals, one), "50 stored + 1 in flight + 1");
        assertEquals(2, reads.get(), "a refusal reads the totals again first");
        now[0] += Duration.ofSeconds(2).toNanos() + 1;
        inFlight.close();
        assertEquals(0, cached.tenantsInFlight());
    }

    /** Cached totals only ever count too much (a delete lowers them unseen): a check that would refuse on them reads again. */
    @Test
    void aRefusalIsDecidedOnTotalsReadNow() {
        QuotaReservations cached = new QuotaReservations(Duration.ofHours(1), () -> 0L);
        AtomicLong documents = new AtomicLong(4);
        AtomicInteger reads = new AtomicInteger();
        Supplier<CorpusStats> totals = () -> {
            reads.incrementAndGet();
            return stored(documents.get(), 0, 0);
        };
        Quotas five = new Quotas(5, 0, 0, 0, 0);
        QuotaReservations.Growth one = new QuotaReservations.Growth(1, 0, 0);
        // Holds the tenant's entry (and its totals) open: a replacement growing by one byte, without a byte quota.
        QuotaReservations.Reservation open = cached.reserve("acme", five, totals, new QuotaReservations.Growth(0, 0, 1));
        cached.reserve("acme", five, totals, one).settle(documents::incrementAndGet); // 5 of 5, known here
        documents.decrementAndGet(); // another request deleted one
        QuotaReservations.Reservation fits = cached.reserve("acme", five, totals, one);
        assertEquals(2, reads.get(), "5 + 1 would refuse: read again, 4 + 1 fits");
        fits.settle(documents::incrementAndGet);
        IngestException over = assertThrows(IngestException.class, () -> cached.reserve("acme", five, totals, one));
        assertTrue(over.getMessage().contains("6 documents; its quota is 5"), over.getMessage());
        assertEquals(3, reads.get());
        open.close();
    }

    /** A replacement that shrinks may bring a tenant over its chunk quota back under it; it frees nothing while in flight. */
    @Test
    void aShrinkingReplacementPassesEvenOverTheQuotaAndHoldsNothing() {
        Quotas hundredChunks = new Quotas(0, 100, 0, 0, 0);
        QuotaReservations.Reservation shrink = reservations.reserve("acme", hundredChunks, () -> stored(10, 120, 0),
                new QuotaReservations.Growth(0, -30, -5_000));
        QuotaReservations.Reservation grow = reservations.reserve("acme", hundredChunks, () -> stored(10, 60, 0),
                new QuotaReservations.Growth(1, 40, 0));
        assertThrows(IngestException.class, () -> reservations.reserve("acme", hundredChunks, () -> stored(10, 60, 0),
                new QuotaReservations.Growth(1, 1, 0)), "the 30 chunks the shrink frees are not free until it is stored");
        shrink.close();
        grow.close();
        assertEquals(0, reservations.tenantsInFlight());
    }

    @Test
    void aTenantWithoutSizeQuotasReservesNothing() {
        QuotaReservations.Reservation none = reservations.reserve("acme", Quotas.UNLIMITED, () -> {
            throw new AssertionError("no totals are read without a quota");
        }, new QuotaReservations.Growth(1, 1_000_000, 1L << 40));
        assertEquals("activated", none.settle(() -> "activated"));
        assertEquals(0, reservations.tenantsInFlight());
    }

    /** Writers started together against a quota: exactly the room is stored, never more, and nothing that fit is refused. */
    @Test
    void parallelWritersStoreExactlyTheRoomLeft() throws Exception {
        Quotas quota = new Quotas(40, 0, 0, 0, 0);
        AtomicLong documents = new AtomicLong(10);
        AtomicInteger refused = new AtomicInteger();
        int writers = 8;
        CyclicBarrier start = new CyclicBarrier(writers);
        List<Thread> threads = new ArrayList<>();
        for (int w = 0; w < writers; w++) {
            threads.add(new Thread(() -> {
                try {
                    start.await();
                    for (int i = 0; i < 10; i++) {
                        try (QuotaReservations.Reservation reserved = reservations.reserve("acme", quota, () -> stored(documents.get(), 0, 0),
                                new QuotaReservations.Growth(1, 1, 1))) {
                            Thread.onSpinWait(); // the document's chunks being embedded and written
                            reserved.settle(documents::incrementAndGet);
                        } catch (IngestException e) {
                            refused.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(40, documents.get(), "30 of the 80 attempts fit, and were stored");
        assertEquals(50, refused.get());
        assertEquals(0, reservations.tenantsInFlight());
    }
}
