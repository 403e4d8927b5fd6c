package io.corpora.ingest;

import io.corpora.controlplane.IngestJob;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * A job's outcomes, recorded in groups: one control-plane transaction for up to {@code maxBatch} documents instead of
 * one each (each commit writes the job's row and a page of its outcome log). An outcome waits at most {@code maxDelay}
 * before it is recorded, so the job's progress lags that much; the job runner flushes what is left before it finishes
 * the job, and the job's status tells the client its documents are done only after that. Not thread-safe: the thread
 * that hands the job's outcomes on ({@link OrderedWindow}) owns it.
 */
public final class OutcomeBatch implements OrderedWindow.BufferedSink<IngestJob.Outcome> {

    /** Outcomes recorded together at most, and the longest one waits, by default. */
    public static final int DEFAULT_MAX_BATCH = 32;
    public static final Duration DEFAULT_MAX_DELAY = Duration.ofMillis(250);

    private final Consumer<List<IngestJob.Outcome>> record;
    private final int maxBatch;
    private final long maxDelayNanos;
    private final LongSupplier nanoClock;
    private final List<IngestJob.Outcome> pending = new ArrayList<>();
    private long oldestAt;

    /** @param record appends outcomes to the job in their order, in one transaction */
    public OutcomeBatch(Consumer<List<IngestJob.Outcome>> record, int maxBatch, Duration maxDelay, LongSupplier nanoClock) {
        if (maxBatch < 1) {
            throw new IllegalArgumentException("maxBatch must be at least 1, got " + maxBatch);
        }
        if (maxDelay.isNegative()) {
            throw new IllegalArgumentException("maxDelay must not be negative, got " + maxDelay);
        }
        this.record = record;
        this.maxBatch = maxBatch;
        this.maxDelayNanos = maxDelay.toNanos();
        this.nanoClock = nanoClock;
    }

    public OutcomeBatch(Consumer<List<IngestJob.Outcome>> record) {
        this(record, DEFAULT_MAX_BATCH, DEFAULT_MAX_DELAY, System::nanoTime);
    }

    @Override
    public void accept(IngestJob.Outcome outcome) {
        if (pending.isEmpty()) {
            oldestAt = nanoClock.getAsLong();
        }
        pending.add(outcome);
        if (pending.size() >= maxBatch || nanosUntilDue() <= 0) {
            flush();
        }
    }

    @Override
    public long nanosUntilDue() {
        return pending.isEmpty() ? Long.MAX_VALUE : Math.max(0, oldestAt + maxDelayNanos - nanoClock.getAsLong());
    }

    @Override
    public void due() {
        flush();
    }

    /** Records every pending outcome now (nothing when none is pending). */
    public void flush() {
        if (pending.isEmpty()) {
            return;
        }
        List<IngestJob.Outcome> batch = List.copyOf(pending);
        pending.clear(); // cleared first: outcomes a failed recording lost are not recorded twice by a later flush
        record.accept(batch);
    }

    /** Outcomes not recorded yet. */
    public int pending() {
        return pending.size();
    }
}
