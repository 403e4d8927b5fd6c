package io.corpora.cli.bench;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;

/** Runs one operation from N client threads for a fixed window and reports percentiles and throughput. */
final class Latency {

    record Result(int clients, long operations, double p50Ms, double p99Ms, double meanMs, double perSecond) {}

    private Latency() {}

    /**
     * @param operation called with the operation's sequence number (pick the query with it); must be thread-safe
     * @param warmup    operations run once, unmeasured, before the window (JIT, caches, page cache)
     */
    static Result measure(int clients, Duration window, int warmup, IntConsumer operation) {
        for (int i = 0; i < warmup; i++) {
            operation.accept(i);
        }
        List<long[]> samples = new ArrayList<>();
        int[] counts = new int[clients];
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch start = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        long[] deadline = new long[1];
        for (int c = 0; c < clients; c++) {
            long[] mine = new long[1 << 20];
            samples.add(mine);
            int client = c;
            Thread thread = new Thread(() -> {
                try {
                    start.await();
                    int n = 0;
                    int seq = client * 7919;
                    while (System.nanoTime() < deadline[0] && n < mine.length) {
                        long t0 = System.nanoTime();
                        operation.accept(seq++);
                        mine[n++] = System.nanoTime() - t0;
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
        deadline[0] = began + window.toNanos();
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
        int total = Arrays.stream(counts).sum();
        long[] all = new long[total];
        int at = 0;
        for (int c = 0; c < clients; c++) {
            System.arraycopy(samples.get(c), 0, all, at, counts[c]);
            at += counts[c];
        }
        Arrays.sort(all);
        double mean = total == 0 ? 0 : Arrays.stream(all).average().orElse(0) / 1e6;
        return new Result(clients, total, percentile(all, 0.50), percentile(all, 0.99), mean, total / (elapsed / 1e9));
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
