package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

    @Test
    void aBucketAllowsOneMinutesWorthThenRefusesWithTheWaitAndRefills() {
        ManualClock clock = new ManualClock();
        RateLimiter limiter = new RateLimiter(clock);
        for (int i = 0; i < 6; i++) {
            assertTrue(limiter.acquire("acme", 6).allowed());
        }
        RateLimiter.Decision refused = limiter.acquire("acme", 6);
        assertFalse(refused.allowed());
        assertEquals(10, refused.retryAfterSeconds(), "6 a minute: one token every 10 s");
        assertTrue(limiter.acquire("globex", 6).allowed(), "buckets are per key");

        clock.advance(Duration.ofSeconds(10));
        assertTrue(limiter.acquire("acme", 6).allowed());
        assertFalse(limiter.acquire("acme", 6).allowed());
        assertTrue(limiter.acquire("acme", 0).allowed(), "0 means unlimited");
    }

    @Test
    void bucketsNobodyDrewFromForAMinuteAreDroppedAndComeBackFull() {
        ManualClock clock = new ManualClock();
        RateLimiter limiter = new RateLimiter(clock);
        for (int i = 0; i < 6; i++) {
            assertTrue(limiter.acquire("acme", 6).allowed());
        }
        assertFalse(limiter.acquire("acme", 6).allowed());
        assertTrue(limiter.acquire("globex", 6).allowed());
        assertEquals(2, limiter.buckets());

        clock.advance(Duration.ofSeconds(60));
        assertTrue(limiter.acquire("initech", 6).allowed());
        assertEquals(1, limiter.buckets(), "acme and globex were left alone for a minute: only initech's bucket is held");

        for (int i = 0; i < 6; i++) {
            assertTrue(limiter.acquire("acme", 6).allowed(), "a dropped bucket comes back full, as it would have refilled: take " + i);
        }
        assertFalse(limiter.acquire("acme", 6).allowed());
    }

    @Test
    void aBucketDrawnFromWithinTheMinuteIsKeptWithWhatItHolds() {
        ManualClock clock = new ManualClock();
        RateLimiter limiter = new RateLimiter(clock);
        for (int i = 0; i < 6; i++) {
            assertTrue(limiter.acquire("acme", 6).allowed());
        }
        clock.advance(Duration.ofSeconds(55));
        for (int i = 0; i < 5; i++) {
            assertTrue(limiter.acquire("acme", 6).allowed(), "55 s refilled 5.5 tokens: take " + i);
        }
        clock.advance(Duration.ofSeconds(5));
        assertTrue(limiter.acquire("globex", 6).allowed());    // the sweep runs: acme was drawn from 5 s ago
        assertEquals(2, limiter.buckets());
        assertTrue(limiter.acquire("acme", 6).allowed(), "0.5 + 0.5 tokens");
        assertFalse(limiter.acquire("acme", 6).allowed(), "kept with what it held, not replaced by a full bucket");
    }

    @Test
    void aClockSetBackTakesNoTokensAway() {
        ManualClock clock = new ManualClock();
        RateLimiter limiter = new RateLimiter(clock);
        assertTrue(limiter.acquire("acme", 6).allowed());
        clock.advance(Duration.ofSeconds(-30));
        for (int i = 0; i < 5; i++) {
            assertTrue(limiter.acquire("acme", 6).allowed(), "the five tokens left: take " + i);
        }
        assertFalse(limiter.acquire("acme", 6).allowed());
        clock.advance(Duration.ofSeconds(40));
        assertTrue(limiter.acquire("acme", 6).allowed(), "10 s after the latest time seen, one token");
        assertFalse(limiter.acquire("acme", 6).allowed());
    }

    @Test
    void concurrentTakesFromOneBucketAllowExactlyItsCapacity() throws Exception {
        RateLimiter limiter = new RateLimiter(new ManualClock());
        AtomicInteger allowed = new AtomicInteger();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
                for (int i = 0; i < 10; i++) {
                    if (limiter.acquire("acme", 25).allowed()) {
                        allowed.incrementAndGet();
                    }
                }
            });
            thread.start();
            threads.add(thread);
        }
        start.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        assertEquals(25, allowed.get(), "80 takes from a bucket of 25 on a stopped clock");
    }
}
