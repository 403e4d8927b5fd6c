package io.corpora.tenancy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
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
}
