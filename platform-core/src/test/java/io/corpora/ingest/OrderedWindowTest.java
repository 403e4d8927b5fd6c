package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.controlplane.IngestJob;
import io.corpora.testkit.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class OrderedWindowTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    /** Item 0 finishes only once items 1..5 have run: a window that refilled from its oldest item only would never get there. */
    @Test
    void aSlowItemDoesNotHoldBackTheItemsBehindItAndResultsStayInOrder() {
        CountDownLatch othersDone = new CountDownLatch(5);
        List<Integer> handedOn = new ArrayList<>();
        List<Boolean> headWaitedLongEnough = Collections.synchronizedList(new ArrayList<>());
        OrderedWindow.run(IntStream.range(0, 6).boxed().toList(), 2, executor, item -> {
            if (item == 0) {
                headWaitedLongEnough.add(await(othersDone));
            } else {
                othersDone.countDown();
            }
            return item;
        }, handedOn::add);
        assertEquals(List.of(true), headWaitedLongEnough, "items 1..5 ran while item 0 was in flight, through the other slot");
        assertEquals(List.of(0, 1, 2, 3, 4, 5), handedOn, "results in item order all the same");
    }

    /** Items 0..2 hold their slots until all three run, so the window fills whatever the machine's timing. */
    @Test
    void neverMoreThanTheWindowInFlight() {
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger most = new AtomicInteger();
        CountDownLatch firstThreeStarted = new CountDownLatch(3);
        List<Integer> handedOn = new ArrayList<>();
        OrderedWindow.run(IntStream.range(0, 40).boxed().toList(), 3, executor, item -> {
            most.accumulateAndGet(inFlight.incrementAndGet(), Math::max);
            if (item < 3) {
                firstThreeStarted.countDown();
                await(firstThreeStarted);
            }
            inFlight.decrementAndGet();
            return item;
        }, handedOn::add);
        assertTrue(most.get() <= 3, "at most 3 in flight, saw " + most.get());
        assertTrue(most.get() > 1, "the window was used");
        assertEquals(IntStream.range(0, 40).boxed().toList(), handedOn);
    }

    @Test
    void aWindowOfOneRunsOnTheCallingThreadInOrder() {
        Thread caller = Thread.currentThread();
        List<String> handedOn = new ArrayList<>();
        OrderedWindow.run(List.of("a", "b", "c"), 1, executor, item -> {
            assertEquals(caller, Thread.currentThread());
            return item.toUpperCase();
        }, handedOn::add);
        assertEquals(List.of("A", "B", "C"), handedOn);
    }

    @Test
    void whatAnItemThrowsReachesTheCaller() {
        IllegalStateException runtime = assertThrows(IllegalStateException.class, () -> OrderedWindow.run(List.of(1, 2, 3), 2, executor, item -> {
            if (item == 2) {
                throw new IllegalStateException("boom");
            }
            return item;
        }, item -> { }));
        assertEquals("boom", runtime.getMessage());
        IllegalStateException error = assertThrows(IllegalStateException.class, () -> OrderedWindow.run(List.of(1, 2), 2, executor, item -> {
            throw new AssertionError("an Error");
        }, item -> { }));
        assertTrue(error.getCause() instanceof AssertionError, String.valueOf(error.getCause()));
    }

    /**
     * Item 1 runs until the sink has recorded item 0's outcome: the window, waiting for item 1, must tell the sink its
     * deadline passed, or the job's progress would wait for its slowest document.
     */
    @Test
    void aHeldResultIsHandedOnWhileTheWindowWaitsForASlowItem() {
        List<List<String>> recorded = Collections.synchronizedList(new ArrayList<>());
        OutcomeBatch batch = new OutcomeBatch(outcomes -> recorded.add(outcomes.stream().map(IngestJob.Outcome::documentId).toList()),
                100, Duration.ofMillis(20), System::nanoTime);
        List<Boolean> slowSawIt = Collections.synchronizedList(new ArrayList<>());
        OrderedWindow.run(List.of("fast", "slow"), 2, executor, id -> {
            if (id.equals("slow")) {
                Poll.until("item 0's outcome recorded while item 1 runs", Duration.ofSeconds(30), () -> !recorded.isEmpty());
                slowSawIt.add(true);
            }
            return new IngestJob.Outcome(id, "stored", 1, 1, 201, null);
        }, batch);
        batch.flush();
        assertEquals(List.of(true), slowSawIt);
        assertEquals(List.of(List.of("fast"), List.of("slow")), recorded);
    }

    private static boolean await(CountDownLatch latch) {
        try {
            return latch.await(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
