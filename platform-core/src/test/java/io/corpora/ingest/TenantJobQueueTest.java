package io.corpora.ingest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.testkit.Poll;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class TenantJobQueueTest {

    private static final Duration DEADLINE = Duration.ofSeconds(30);

    private final ExecutorService executor = Executors.newCachedThreadPool();

    @AfterEach
    void stop() throws InterruptedException {
        executor.shutdownNow();
        assertTrue(executor.awaitTermination(30, TimeUnit.SECONDS));
    }

    @Test
    void aTenantRunsAtMostItsSlotsAndTheRestStartInSubmissionOrderWhileOtherTenantsDoNotWait() throws Exception {
        TenantJobQueue queue = new TenantJobQueue(executor, 2);
        CountDownLatch release = new CountDownLatch(1);
        AtomicInteger running = new AtomicInteger();
        AtomicInteger mostAtOnce = new AtomicInteger();
        List<Integer> started = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allDone = new CountDownLatch(8);
        for (int i = 0; i < 8; i++) {
            int number = i;
            queue.submit("acme", () -> {
                started.add(number);
                mostAtOnce.accumulateAndGet(running.incrementAndGet(), Math::max);
                try {
                    release.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    running.decrementAndGet();
                    allDone.countDown();
                }
            });
        }
        Poll.until("two of acme's jobs running", DEADLINE, () -> running.get() == 2);
        assertEquals(6, queue.waiting("acme"));

        CountDownLatch otherRan = new CountDownLatch(1);
        queue.submit("beta", otherRan::countDown);
        assertTrue(otherRan.await(30, TimeUnit.SECONDS), "another tenant's job started while acme's slots were taken");

        release.countDown();
        assertTrue(allDone.await(30, TimeUnit.SECONDS));
        assertEquals(2, mostAtOnce.get(), "never more than the tenant's slots at once");
        assertEquals(8, started.size());
        assertEquals(0, queue.waiting("acme"));
    }

    @Test
    void waitingJobsStartInTheOrderTheyWereSubmitted() throws Exception {
        TenantJobQueue queue = new TenantJobQueue(executor, 1);
        CountDownLatch release = new CountDownLatch(1);
        List<Integer> ran = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch allDone = new CountDownLatch(6);
        for (int i = 0; i < 6; i++) {
            int number = i;
            queue.submit("acme", () -> {
                try {
                    if (number == 0) {
                        release.await(); // holds the only slot until every other job is queued
                    }
                    ran.add(number);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    allDone.countDown();
                }
            });
        }
        assertEquals(5, queue.waiting("acme"));
        release.countDown();
        assertTrue(allDone.await(30, TimeUnit.SECONDS));
        assertEquals(List.of(0, 1, 2, 3, 4, 5), ran);
    }

    @Test
    void aJobThatThrowsStillHandsItsSlotOn() throws Exception {
        TenantJobQueue queue = new TenantJobQueue(executor, 1);
        CountDownLatch second = new CountDownLatch(1);
        queue.submit("acme", () -> {
            throw new IllegalStateException("a job's own failure");
        });
        queue.submit("acme", second::countDown);
        assertTrue(second.await(30, TimeUnit.SECONDS), "the next job started after the failed one");
    }

    @Test
    void aJobTheExecutorRefusesIsReportedAndFreesItsSlot() throws Exception {
        ExecutorService closed = Executors.newSingleThreadExecutor();
        closed.shutdown();
        TenantJobQueue refusing = new TenantJobQueue(closed, 1);
        assertThrows(RejectedExecutionException.class, () -> refusing.submit("acme", () -> { }));
        assertEquals(0, refusing.waiting("acme"));
        assertThrows(RejectedExecutionException.class, () -> refusing.submit("acme", () -> { }),
                "the slot was given back: the second job is started (and refused), not queued behind a job that never ran");
        assertEquals(0, refusing.waiting("acme"));
    }

    @Test
    void aTenantNeedsAtLeastOneSlot() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new TenantJobQueue(executor, 0));
        assertTrue(e.getMessage().contains("at least 1"), e.getMessage());
    }
}
