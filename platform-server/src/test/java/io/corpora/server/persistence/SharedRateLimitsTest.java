package io.corpora.server.persistence;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.tenancy.RateLimits;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The control plane's token buckets as two servers see them: two limiters, each on its own connection, draw from one
 * bucket per key, so a tenant's quota is its quota behind any number of servers (H2, and PostgreSQL when
 * CORPORA_TEST_PG_URL is set).
 */
class SharedRateLimitsTest {

    @RegisterExtension
    final ControlPlanes controlPlanes = new ControlPlanes();

    private ControlPlaneJpa jpa;
    private final AtomicReference<Instant> now = new AtomicReference<>(Instant.parse("2026-01-01T00:00:00Z"));
    private final Clock clock = new Clock() {
        @Override public java.time.ZoneId getZone() { return ZoneOffset.UTC; }
        @Override public Clock withZone(java.time.ZoneId zone) { return this; }
        @Override public Instant instant() { return now.get(); }
    };

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void twoServersShareOneBucketAndItRefills(String database) throws Exception {
        open(database);
        RateLimits serverA = jpa.perThread(RateLimits.class, em -> new JpaRateLimits(em, clock));
        RateLimits serverB = jpa.perThread(RateLimits.class, em -> new JpaRateLimits(em, clock));
        String key = "requests:acme-" + database + "-" + System.nanoTime();

        int allowed = 0;
        for (int i = 0; i < 6; i++) {
            allowed += (i % 2 == 0 ? serverA : serverB).acquire(key, 6).allowed() ? 1 : 0;
        }
        assertEquals(6, allowed, "a full bucket holds one minute's worth");
        RateLimits.Decision refusedOnA = serverA.acquire(key, 6);
        RateLimits.Decision refusedOnB = serverB.acquire(key, 6);
        assertFalse(refusedOnA.allowed());
        assertFalse(refusedOnB.allowed(), "the other server sees the same empty bucket");
        assertEquals(10, refusedOnB.retryAfterSeconds(), "6 a minute: the next token in 10 s");
        assertTrue(serverA.acquire("requests:other-" + System.nanoTime(), 6).allowed(), "buckets are per key");

        now.updateAndGet(t -> t.plus(Duration.ofSeconds(10)));
        assertTrue(serverB.acquire(key, 6).allowed(), "10 s refill one token");
        assertFalse(serverA.acquire(key, 6).allowed(), "…and only one");
    }

    @ParameterizedTest
    @ValueSource(strings = {"h2", "postgresql"})
    void concurrentTakesOnTwoServersNeverExceedTheQuota(String database) throws Exception {
        open(database);
        RateLimits serverA = jpa.perThread(RateLimits.class, em -> new JpaRateLimits(em, clock));
        RateLimits serverB = jpa.perThread(RateLimits.class, em -> new JpaRateLimits(em, clock));
        String key = "ingests:race-" + database + "-" + System.nanoTime();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<Boolean>> takes = new ArrayList<>();
            for (int i = 0; i < 40; i++) {
                RateLimits server = i % 2 == 0 ? serverA : serverB;
                takes.add(pool.submit((Callable<Boolean>) () -> server.acquire(key, 25).allowed()));
            }
            int allowed = 0;
            for (Future<Boolean> take : takes) {
                allowed += take.get() ? 1 : 0;
            }
            assertEquals(25, allowed, "40 concurrent takes from a bucket of 25 on two servers");
        } finally {
            pool.shutdownNow();
        }
    }

    private void open(String database) throws Exception {
        jpa = controlPlanes.open(database);
    }
}
