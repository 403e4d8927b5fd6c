package io.corpora.ingest;

import io.corpora.controlplane.IngestJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Lets a caller wait for a job to finish instead of polling it (a long poll, as {@code GET jobs/{id}?wait=30}): a
 * client that learns of a finished job only at its next look leaves the server idle in between, and jobs that run side by
 * side finish together. A job run by this process wakes its waiters the moment it finishes; a job run by another server
 * is seen at the next re-read of the control plane, every {@link #recheck}, so waiting never depends on which server
 * runs the job. Holds nothing for a job no one waits for.
 */
public final class JobCompletions {

    private final Map<String, List<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();
    private final Duration recheck;
    private final LongSupplier nanoClock;

    /** @param recheck how often a waiter re-reads the job (a job finishing on another server is seen this late at most) */
    public JobCompletions(Duration recheck, LongSupplier nanoClock) {
        if (recheck.isNegative() || recheck.isZero()) {
            throw new IllegalArgumentException("recheck must be positive, got " + recheck);
        }
        this.recheck = recheck;
        this.nanoClock = nanoClock;
    }

    public JobCompletions() {
        this(Duration.ofSeconds(1), System::nanoTime);
    }

    /** Wakes everyone waiting for the job; the job runner calls it once the job's final status is recorded. */
    public void finished(String jobId) {
        List<CompletableFuture<Void>> woken = waiters.remove(jobId);
        if (woken != null) {
            synchronized (woken) {
                woken.forEach(f -> f.complete(null));
            }
        }
    }

    /**
     * Reads the job until it has finished or {@code wait} has passed, and returns the last reading (empty when the job
     * does not exist, or no longer does). {@code wait} zero reads once.
     */
    public Optional<IngestJob> await(String jobId, Duration wait, Supplier<Optional<IngestJob>> read) throws InterruptedException {
        long deadline = nanoClock.getAsLong() + wait.toNanos();
        while (true) {
            // Registered before the reading, so a job finishing in between still wakes this waiter.
            CompletableFuture<Void> woken = register(jobId);
            try {
                Optional<IngestJob> job = read.get();
                long left = deadline - nanoClock.getAsLong();
                if (job.isEmpty() || job.get().finished() || left <= 0) {
                    return job;
                }
                woken.get(Math.min(left, recheck.toNanos()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                // re-read: the job may run on another server, which cannot wake this one
            } catch (ExecutionException e) {
                throw new IllegalStateException("a job's completion signal failed", e); // never completed exceptionally
            } finally {
                unregister(jobId, woken);
            }
        }
    }

    /** Jobs someone waits for (tests: a waiter that timed out leaves nothing behind). */
    int jobsAwaited() {
        return waiters.size();
    }

    private CompletableFuture<Void> register(String jobId) {
        CompletableFuture<Void> woken = new CompletableFuture<>();
        waiters.compute(jobId, (id, list) -> {
            List<CompletableFuture<Void>> updated = list == null ? new ArrayList<>() : list;
            synchronized (updated) {
                updated.add(woken);
            }
            return updated;
        });
        return woken;
    }

    private void unregister(String jobId, CompletableFuture<Void> woken) {
        waiters.computeIfPresent(jobId, (id, list) -> {
            synchronized (list) {
                list.remove(woken);
                return list.isEmpty() ? null : list;
            }
        });
    }
}
