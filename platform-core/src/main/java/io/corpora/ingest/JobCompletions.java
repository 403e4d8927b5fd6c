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
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Lets a caller wait for a job to finish instead of polling it (a long poll, as {@code GET jobs/{id}?wait=30}): a
 * client that learns of a finished job only at its next look leaves the server idle in between, and jobs that run side by
 * side finish together. A job run by this process wakes its waiters the moment it finishes; a job run by another server
 * is seen at the next re-read of the control plane, every {@link #recheck}, so waiting never depends on which server
 * runs the job. Holds nothing for a job no one waits for.
 *
 * <p>Each waiter holds a request thread and re-reads the control plane every recheck, so waiters are bounded, in all
 * and per tenant (one tenant's clients cannot take every slot): a look beyond either bound is answered at once, as a
 * look without a wait, and the client's next look asks again.
 */
public final class JobCompletions {

    /** Waiters held at once by default, in all and per tenant. */
    public static final int DEFAULT_MAX_WAITING = 64;
    public static final int DEFAULT_MAX_WAITING_PER_TENANT = 8;

    private final Map<String, List<CompletableFuture<Void>>> waiters = new ConcurrentHashMap<>();
    private final Map<String, Integer> waitingByTenant = new ConcurrentHashMap<>();
    private final AtomicInteger waiting = new AtomicInteger();
    private final Duration recheck;
    private final int maxWaiting;
    private final int maxWaitingPerTenant;
    private final LongSupplier nanoClock;

    /**
     * @param recheck             how often a waiter re-reads the job (a job finishing on another server is seen this late at most)
     * @param maxWaiting          waiters held at once; a look beyond it is answered at once
     * @param maxWaitingPerTenant waiters of one tenant held at once
     */
    public JobCompletions(Duration recheck, int maxWaiting, int maxWaitingPerTenant, LongSupplier nanoClock) {
        if (recheck.isNegative() || recheck.isZero()) {
            throw new IllegalArgumentException("recheck must be positive, got " + recheck);
        }
        if (maxWaiting < 0 || maxWaitingPerTenant < 0) {
            throw new IllegalArgumentException("the waiter bounds must be >= 0, got " + maxWaiting + " and " + maxWaitingPerTenant);
        }
        this.recheck = recheck;
        this.maxWaiting = maxWaiting;
        this.maxWaitingPerTenant = maxWaitingPerTenant;
        this.nanoClock = nanoClock;
    }

    public JobCompletions(Duration recheck, LongSupplier nanoClock) {
        this(recheck, DEFAULT_MAX_WAITING, DEFAULT_MAX_WAITING_PER_TENANT, nanoClock);
    }

    public JobCompletions(int maxWaiting, int maxWaitingPerTenant) {
        this(Duration.ofSeconds(1), maxWaiting, maxWaitingPerTenant, System::nanoTime);
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
     * Reads the tenant's job until it has finished or {@code wait} has passed, and returns the last reading (empty when
     * the job does not exist, or no longer does). {@code wait} zero, or no free waiter slot, reads once.
     */
    public Optional<IngestJob> await(String tenantId, String jobId, Duration wait, Supplier<Optional<IngestJob>> read)
            throws InterruptedException {
        if (wait.isZero() || !admit(tenantId)) {
            return read.get();
        }
        try {
            return awaitAdmitted(jobId, wait, read);
        } finally {
            release(tenantId);
        }
    }

    private Optional<IngestJob> awaitAdmitted(String jobId, Duration wait, Supplier<Optional<IngestJob>> read) throws InterruptedException {
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

    /** Waiters held now. */
    public int waiting() {
        return waiting.get();
    }

    private boolean admit(String tenantId) {
        if (waiting.incrementAndGet() > maxWaiting) {
            waiting.decrementAndGet();
            return false;
        }
        boolean[] admitted = {false};
        waitingByTenant.compute(tenantId, (id, held) -> {
            int now = held == null ? 0 : held;
            if (now >= maxWaitingPerTenant) {
                return held;
            }
            admitted[0] = true;
            return now + 1;
        });
        if (!admitted[0]) {
            waiting.decrementAndGet();
        }
        return admitted[0];
    }

    private void release(String tenantId) {
        waitingByTenant.computeIfPresent(tenantId, (id, held) -> held <= 1 ? null : held - 1);
        waiting.decrementAndGet();
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
