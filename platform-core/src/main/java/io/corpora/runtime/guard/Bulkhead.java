package io.corpora.runtime.guard;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Bounds the concurrent calls to one plugin for one tenant ({@code value}); up to {@code waitingTaskQueue} further callers
 * may wait for a slot, within their own deadline. Anyone beyond that is refused at once, so a tenant whose plugin hangs
 * holds at most {@code value} threads and makes at most {@code waitingTaskQueue} of its own callers wait.
 */
public final class Bulkhead {

    private final Semaphore slots;
    private final int waitingTaskQueue;
    private final AtomicInteger waiting = new AtomicInteger();

    public Bulkhead(int value, int waitingTaskQueue) {
        this.slots = new Semaphore(value, true);
        this.waitingTaskQueue = waitingTaskQueue;
    }

    /** Takes a slot, waiting at most {@code maxWaitNanos} if the queue has room; false when refused. */
    public boolean acquire(long maxWaitNanos) throws InterruptedException {
        if (slots.tryAcquire()) {
            return true;
        }
        if (waiting.incrementAndGet() > waitingTaskQueue) {
            waiting.decrementAndGet();
            return false;
        }
        try {
            return slots.tryAcquire(maxWaitNanos, TimeUnit.NANOSECONDS);
        } finally {
            waiting.decrementAndGet();
        }
    }

    public void release() {
        slots.release();
    }

    public int available() {
        return slots.availablePermits();
    }
}
