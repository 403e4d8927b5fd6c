package io.corpora.ingest;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;

/**
 * A server's stop as long-running work sees it: once {@link #request requested}, work in progress ends at its next step
 * boundary (each kind of work says where), and the stopping server {@link #awaitIdle waits} for that before it hands the
 * work's jobs over (lease release) or closes the persistence unit under it. Work is counted from the moment it is
 * handed to an executor ({@link #execute}) or, in this package, between {@link #enter} and {@link #exit}; a pause that a
 * stop should cut short {@link #sleep sleeps} on it.
 */
public final class GracefulStop {

    private final CountDownLatch requested = new CountDownLatch(1);
    private final Object idle = new Object();
    /** Work in progress; guarded by {@code idle}. */
    private int busy;

    /** From now on work ends at its next step boundary. Returns at once. */
    public void request() {
        requested.countDown();
    }

    public boolean requested() {
        return requested.getCount() == 0;
    }

    /** Counts one piece of work in progress until its {@link #exit}. */
    void enter() {
        synchronized (idle) {
            busy++;
        }
    }

    void exit() {
        synchronized (idle) {
            busy--;
            idle.notifyAll();
        }
    }

    /**
     * Hands {@code task} to {@code executor}, counted as work in progress from now until it has run: a stop waits for a
     * task that has not started yet too. A task the executor refuses is not counted (the refusal is thrown).
     */
    public void execute(Executor executor, Runnable task) {
        enter();
        try {
            executor.execute(() -> {
                try {
                    task.run();
                } finally {
                    exit();
                }
            });
        } catch (RuntimeException refused) {
            exit();
            throw refused;
        }
    }

    /** Waits up to {@code timeout} for the work in progress to exit; whether none is left. */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        return awaitIdleUntil(System.nanoTime() + timeout.toNanos());
    }

    /** Waits up to {@code timeout} in all for the work in progress of every one of {@code stops}; whether none is left. */
    public static boolean awaitIdle(List<GracefulStop> stops, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        boolean all = true;
        for (GracefulStop stop : stops) {
            all &= stop.awaitIdleUntil(deadline);
        }
        return all;
    }

    private boolean awaitIdleUntil(long deadlineNanos) throws InterruptedException {
        synchronized (idle) {
            while (busy > 0) {
                long left = deadlineNanos - System.nanoTime();
                if (left <= 0) {
                    return false;
                }
                TimeUnit.NANOSECONDS.timedWait(idle, left);
            }
            return true;
        }
    }

    /** Sleeps for {@code duration} unless the stop comes first; whether it did (an interrupt ends the sleep as well). */
    public boolean sleep(Duration duration) {
        if (duration.isZero() || duration.isNegative()) {
            return requested();
        }
        try {
            return requested.await(duration.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return requested();
        }
    }
}
