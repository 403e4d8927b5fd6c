package io.corpora.tenancy;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Per-key token buckets refilled continuously at {@code perMinute} tokens a minute, holding at most one minute's worth.
 * A refused call learns how long to wait for the next token (the {@code Retry-After} a 429 carries).
 */
public final class RateLimiter {

    private final Clock clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RateLimiter(Clock clock) {
        this.clock = clock;
    }

    /** The outcome of one attempt: allowed, or refused with the seconds until a token is available. */
    public record Decision(boolean allowed, long retryAfterSeconds) {}

    /** Takes a token for {@code key}; {@code perMinute <= 0} means unlimited. */
    public Decision acquire(String key, int perMinute) {
        if (perMinute <= 0) {
            return new Decision(true, 0);
        }
        Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket(perMinute, clock.millis()));
        synchronized (bucket) {
            bucket.refill(perMinute, clock.millis());
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return new Decision(true, 0);
            }
            double millisPerToken = 60_000.0 / perMinute;
            long waitMillis = (long) Math.ceil((1 - bucket.tokens) * millisPerToken);
            return new Decision(false, Math.max(1, (waitMillis + 999) / 1000));
        }
    }

    private static final class Bucket {
        double tokens;
        long updatedMillis;

        Bucket(int capacity, long now) {
            this.tokens = capacity;
            this.updatedMillis = now;
        }

        void refill(int perMinute, long now) {
            double elapsedMinutes = (now - updatedMillis) / 60_000.0;
            tokens = Math.min(perMinute, tokens + elapsedMinutes * perMinute);
            updatedMillis = now;
        }
    }
}
