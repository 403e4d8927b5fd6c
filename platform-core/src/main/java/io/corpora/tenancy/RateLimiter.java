package io.corpora.tenancy;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * {@link RateLimits} in this process's memory: exact for one server, N times the rate behind N servers (the server uses
 * it when no other process can open its control plane, or when told to; otherwise the control plane's shared buckets).
 * A refused call learns how long to wait for the next token (the {@code Retry-After} a 429 carries).
 */
public final class RateLimiter implements RateLimits {

    private final Clock clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();

    public RateLimiter(Clock clock) {
        this.clock = clock;
    }

    @Override
    public Decision acquire(String key, int perMinute) {
        if (perMinute <= 0) {
            return Decision.allow();
        }
        Bucket bucket = buckets.computeIfAbsent(key, k -> new Bucket(perMinute, clock.millis()));
        synchronized (bucket) {
            bucket.refill(perMinute, clock.millis());
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                return Decision.allow();
            }
            return Decision.refused(bucket.tokens, perMinute);
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
