package io.corpora.cli.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/**
 * Runs one operation from N client threads for a warm-up period, unmeasured, then for a fixed window, and reports the
 * window's percentiles and throughput. The warm-up is by time and from the same client threads as the window, so every
 * system gets the same warm-up whatever its per-call cost (a count of calls would warm a slow system for longer).
 */
final class Latency {

    /** @param warmupOperations calls made during the warm-up (not in the percentiles) */
    record Result(int clients, long operations, double p50Ms, double p99Ms, double meanMs, double perSecond, long warmupOperations) {}

    private static final int MAX_SAMPLES_PER_CLIENT = 1 << 20;

    private Latency() {}

    /**
     * @param operation called with the operation's sequence number (pick the query with it); must be thread-safe
     * @param warmup    how long the same clients run the operation, unmeasured, before the window (JIT, caches, page cache)
     */
    static Result measure(int clients, Duration window, Duration warmup, IntConsumer operation) {
        long warmupOperations = warmup.isZero() ? 0 : run(clients, warmup, false, operation).total();
        Run measured = run(clients, window, true, operation);
        long[] all = measured.sortedSamples();
        double mean = all.length == 0 ? 0 : Arrays.stream(all).average().orElse(0) / 1e6;
        return new Result(clients, all.length, percentile(all, 0.50), percentile(all, 0.99), mean,
                all.length / (measured.elapsedNanos() / 1e9), warmupOperations);
    }

    /** One timed run: each client's call durations (the first {@code counts[c]} of {@code samples[c]}) and the wall time. */
    private record Run(long[][] samples, int[] counts, long elapsedNanos) {
        long total() {
            return Arrays.stream(counts).asLongStream().sum();
        }

        long[] sortedSamples() {
            long[] all = new long[(int) total()];
            int at = 0;
            for (int c = 0; c < counts.length; c++) {
                System.arraycopy(samples[c], 0, all, at, counts[c]);
                at += counts[c];
            }
            Arrays.sort(all);
            return all;
        }
    }

    /** @param record whether to keep each call's duration (a warm-up only counts its calls) */
    private static Run run(int clients, Duration duration, boolean record, IntConsumer operation) {
        long[][] samples = new long[clients][record ? MAX_SAMPLES_PER_CLIENT : 0];
        int[] counts = new int[clients];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long[] deadline = new long[1]; // written before start.countDown(), which publishes it to the clients
        for (int c = 0; c < clients; c++) {
            long[] mine = samples[c];
            int client = c;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    int n = 0;
                    int seq = client * 7919;
                    while (System.nanoTime() < deadline[0] && (!record || n < mine.length)) {
                        long t0 = System.nanoTime();
                        operation.accept(seq++);
                        if (record) {
                            mine[n] = System.nanoTime() - t0;
                        }
                        n++;
                    }
                    counts[client] = n;
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "bench-client-" + c);
            threads.add(thread);
            thread.start();
        }
        long began = System.nanoTime();
        deadline[0] = began + duration.toNanos();
        start.countDown();
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
        long elapsed = System.nanoTime() - began;
        if (failure.get() != null) {
            throw new IllegalStateException("a bench client failed: " + failure.get(), failure.get());
        }
        return new Run(samples, counts, elapsed);
    }

    /** Nearest-rank percentile, in milliseconds. */
    static double percentile(long[] sortedNanos, double p) {
        if (sortedNanos.length == 0) {
            return Double.NaN;
        }
        int rank = (int) Math.ceil(p * sortedNanos.length) - 1;
        return sortedNanos[Math.max(0, Math.min(sortedNanos.length - 1, rank))] / 1e6;
    }
}
