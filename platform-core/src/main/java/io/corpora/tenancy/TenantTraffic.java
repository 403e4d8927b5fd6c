package io.corpora.tenancy;

import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Each tenant's request rate and p95 latency over the last minute, for the fleet view. Six 10-second slots per tenant,
 * each a log-scale latency histogram (bins ×1.25 wide from 0.1 ms, so a p95 is within 12 % of the exact one); about
 * 1 KB per tenant that had a request in the last minute, dropped once it has had none for a minute.
 */
public final class TenantTraffic {

    /** Requests a minute and the 95th percentile latency (upper edge of its bin, milliseconds) over the last minute. */
    public record Summary(double requestsPerMinute, double p95Millis) {}

    static final int SLOTS = 6;
    static final long SLOT_NANOS = 10_000_000_000L;
    static final int BINS = 64;
    private static final double FIRST_BIN_MILLIS = 0.1;
    private static final double GROWTH = 1.25;
    private static final double LOG_GROWTH = Math.log(GROWTH);

    private final LongSupplier nanoTime;
    private final Map<String, Window> windows = new ConcurrentHashMap<>();
    private final AtomicLong records = new AtomicLong();

    public TenantTraffic(LongSupplier nanoTime) {
        this.nanoTime = nanoTime;
    }

    public void record(String tenant, long durationNanos) {
        long now = nanoTime.getAsLong();
        windows.computeIfAbsent(tenant, t -> new Window()).record(now / SLOT_NANOS, bin(durationNanos / 1e6));
        if (records.incrementAndGet() % 4096 == 0) {
            evictStale();
        }
    }

    /** Empty when the tenant had no request in the last minute. */
    public Optional<Summary> summary(String tenant) {
        Window window = windows.get(tenant);
        return window == null ? Optional.empty() : window.summary(nanoTime.getAsLong() / SLOT_NANOS);
    }

    /** Forgets this tenant's window (it left the working set: its rate is unknown until its next request). */
    public void forget(String tenant) {
        windows.remove(tenant);
    }

    /** Forgets tenants without a request in the last minute. */
    public void evictStale() {
        long slot = nanoTime.getAsLong() / SLOT_NANOS;
        windows.values().removeIf(w -> w.idleSince(slot));
    }

    int tracked() {
        return windows.size();
    }

    static int bin(double millis) {
        if (millis <= FIRST_BIN_MILLIS) {
            return 0;
        }
        return (int) Math.min(BINS - 1, Math.ceil(Math.log(millis / FIRST_BIN_MILLIS) / LOG_GROWTH));
    }

    static double upperEdgeMillis(int bin) {
        return FIRST_BIN_MILLIS * Math.pow(GROWTH, bin);
    }

    /** One tenant's slots; slot i holds the 10 s epoch {@code epochs[i]}. */
    private static final class Window {
        private final long[] epochs = new long[SLOTS];
        private final int[][] bins = new int[SLOTS][BINS];
        private long last;

        Window() {
            java.util.Arrays.fill(epochs, -1);
        }

        synchronized void record(long epoch, int bin) {
            int i = (int) Math.floorMod(epoch, (long) SLOTS);
            if (epochs[i] != epoch) {
                epochs[i] = epoch;
                java.util.Arrays.fill(bins[i], 0);
            }
            bins[i][bin]++;
            last = epoch;
        }

        synchronized boolean idleSince(long epoch) {
            return epoch - last >= SLOTS;
        }

        synchronized Optional<Summary> summary(long epoch) {
            int[] total = new int[BINS];
            long count = 0;
            for (int i = 0; i < SLOTS; i++) {
                if (epochs[i] >= 0 && epoch - epochs[i] < SLOTS) {
                    for (int b = 0; b < BINS; b++) {
                        total[b] += bins[i][b];
                        count += bins[i][b];
                    }
                }
            }
            if (count == 0) {
                return Optional.empty();
            }
            long rank = (long) Math.ceil(count * 0.95);
            long seen = 0;
            int p95 = BINS - 1;
            for (int b = 0; b < BINS; b++) {
                seen += total[b];
                if (seen >= rank) {
                    p95 = b;
                    break;
                }
            }
            return Optional.of(new Summary(count, upperEdgeMillis(p95))); // count over the last 60 s = per minute
        }
    }
}
