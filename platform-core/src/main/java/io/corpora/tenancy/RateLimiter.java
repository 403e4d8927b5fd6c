package io.corpora.tenancy;

import java.time.Clock;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@link RateLimits} in this process's memory: exact for one server, N times the rate behind N servers (the server uses
 * it when no other process can open its control plane, or when told to; otherwise the control plane's shared buckets).
 * A refused call learns how long to wait for the next token (the {@code Retry-After} a 429 carries). It holds the
 * buckets in use only: one left alone for a minute has refilled, so it is dropped, and the next call starts a full one.
 */
public final class RateLimiter implements RateLimits {

    /** A bucket untouched this long holds a minute's worth of tokens: the same as a new one. */
    static final long REFILLED_AFTER_MILLIS = 60_000;

    private final Clock clock;
    private final Map<String, Bucket> buckets = new ConcurrentHashMap<>();
    private final AtomicLong nextSweep;

    public RateLimiter(Clock clock) {
        this.clock = clock;
        this.nextSweep = new AtomicLong(clock.millis() + REFILLED_AFTER_MILLIS);
    }

    @Override
    public Decision acquire(String key, int perMinute) {
        if (perMinute <= 0) {
            return Decision.allow();
        }
        long now = clock.millis();
        sweepIfDue(now);
        Decision[] decision = new Decision[1];
        buckets.compute(key, (k, existing) -> {
            Bucket bucket = existing != null ? existing : new Bucket(perMinute, now);
            bucket.refill(perMinute, now);
            if (bucket.tokens >= 1) {
                bucket.tokens -= 1;
                decision[0] = Decision.allow();
            } else {
                decision[0] = Decision.refused(bucket.tokens, perMinute);
            }
            return bucket;
        });
        return decision[0];
    }

    /** How many buckets are held (for tests). */
    int buckets() {
        return buckets.size();
    }

    /** At most once a minute, drops the buckets nobody drew from for a minute; each under its key's lock, so no take is lost. */
    private void sweepIfDue(long now) {
        long due = nextSweep.get();
        if (now < due || !nextSweep.compareAndSet(due, now + REFILLED_AFTER_MILLIS)) {
            return;
        }
        for (String key : buckets.keySet()) {
            buckets.computeIfPresent(key, (k, bucket) -> now - bucket.updatedMillis >= REFILLED_AFTER_MILLIS ? null : bucket);
        }
    }

    private static final class Bucket {
        double tokens;
        long updatedMillis;

        Bucket(int capacity, long now) {
            this.tokens = capacity;
            this.updatedMillis = now;
        }

        /** Elapsed time never counts negative: a clock set back neither takes tokens away nor moves the bucket back. */
        void refill(int perMinute, long now) {
            double elapsedMinutes = Math.max(0, now - updatedMillis) / 60_000.0;
            tokens = Math.min(perMinute, tokens + elapsedMinutes * perMinute);
            updatedMillis = Math.max(updatedMillis, now);
        }
    }
}
