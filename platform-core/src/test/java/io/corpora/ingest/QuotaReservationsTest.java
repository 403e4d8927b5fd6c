package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.DocumentRegistry.CorpusStats;
import io.corpora.controlplane.Quotas;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
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
