package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class RateLimiterTest {

    /** A clock the test moves by hand. */
    private static final class ManualClock extends Clock {
        private Instant now = Instant.parse("2026-11-30T00:00:00Z");

        void advance(Duration duration) {
            now = now.plus(duration);
        }

        @Override
        public ZoneOffset getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(java.time.ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

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
}
