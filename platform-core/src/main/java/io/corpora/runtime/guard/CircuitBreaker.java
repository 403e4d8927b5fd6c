package io.corpora.runtime.guard;

import java.util.function.LongSupplier;

/**
 * A circuit breaker with MicroProfile Fault Tolerance's semantics. CLOSED: outcomes go into a rolling window of the
 * last {@code requestVolumeThreshold} calls; once the window is full and at least {@code failureRatio} of it failed,
 * the breaker opens. OPEN: calls are refused for {@code delay}. HALF_OPEN: up to {@code successThreshold} trial calls
 * run; that many consecutive successes close the breaker (with an empty window), any failure opens it again. A call
 * that failed for the caller's input or was refused for load ({@link #onInconclusive}) is recorded in neither state.
 * The clock is injected (nanoseconds), so tests step time instead of sleeping.
 */
public final class CircuitBreaker {

    public enum State { CLOSED, OPEN, HALF_OPEN }

    private final int requestVolumeThreshold;
    private final double failureRatio;
    private final long delayNanos;
    private final int successThreshold;
    private final LongSupplier nanoClock;

    private final boolean[] window;
    private int windowSize;
    private int windowNext;
    private int windowFailures;

    private State state = State.CLOSED;
    private long openedAt;
    private int trialsInFlight;
    private int trialSuccesses;

    public CircuitBreaker(int requestVolumeThreshold, double failureRatio, long delayNanos, int successThreshold, LongSupplier nanoClock) {
        this.requestVolumeThreshold = requestVolumeThreshold;
        this.failureRatio = failureRatio;
        this.delayNanos = delayNanos;
        this.successThreshold = successThreshold;
        this.nanoClock = nanoClock;
        this.window = new boolean[requestVolumeThreshold];
    }

    public static CircuitBreaker of(GuardPolicy policy, LongSupplier nanoClock) {
        return new CircuitBreaker(policy.requestVolumeThreshold(), policy.failureRatio(), policy.breakerDelay().toNanos(),
                policy.successThreshold(), nanoClock);
    }

    /**
     * Asks to make a call: 0 when admitted (the caller must then report exactly one outcome), otherwise how many
     * nanoseconds remain until the breaker lets trial calls through (at least 1).
     */
    public synchronized long admit() {
        if (state == State.OPEN) {
            long remaining = openedAt + delayNanos - nanoClock.getAsLong();
            if (remaining > 0) {
                return remaining;
            }
            state = State.HALF_OPEN;
            trialsInFlight = 0;
            trialSuccesses = 0;
        }
        if (state == State.HALF_OPEN) {
            if (trialsInFlight + trialSuccesses >= successThreshold) {
                return Math.max(1, delayNanos / 10); // trials are running; their outcome decides, soon
            }
            trialsInFlight++;
        }
        return 0;
    }

    public synchronized void onSuccess() {
        if (state == State.HALF_OPEN) {
            trialsInFlight = Math.max(0, trialsInFlight - 1);
            if (++trialSuccesses >= successThreshold) {
                state = State.CLOSED;
                clearWindow();
            }
        } else if (state == State.CLOSED) {
            record(false);
        }
    }

    /**
     * The admitted call ended in a way that says nothing about the plugin's health — the caller's error (invalid
     * input), or refused for load by a bulkhead full of calls within their timeout: nothing is recorded, and a
     * half-open trial's slot is freed for the next call to decide.
     */
    public synchronized void onInconclusive() {
        if (state == State.HALF_OPEN) {
            trialsInFlight = Math.max(0, trialsInFlight - 1);
        }
    }

    public synchronized void onFailure() {
        if (state == State.HALF_OPEN) {
            open();
        } else if (state == State.CLOSED) {
            record(true);
            if (windowSize == requestVolumeThreshold && windowFailures >= failureRatio * requestVolumeThreshold) {
                open();
            }
        }
    }

    public synchronized State state() {
        return state == State.OPEN && nanoClock.getAsLong() - openedAt >= delayNanos ? State.HALF_OPEN : state;
    }

    /** While open: nanoseconds until trial calls are let through; otherwise 0. */
    public synchronized long openRemainingNanos() {
        return state == State.OPEN ? Math.max(0, openedAt + delayNanos - nanoClock.getAsLong()) : 0;
    }

    private void record(boolean failure) {
        if (windowSize == requestVolumeThreshold) {
            windowFailures -= window[windowNext] ? 1 : 0;
        } else {
            windowSize++;
        }
        window[windowNext] = failure;
        windowFailures += failure ? 1 : 0;
        windowNext = (windowNext + 1) % requestVolumeThreshold;
    }

    private void open() {
        state = State.OPEN;
        openedAt = nanoClock.getAsLong();
        trialsInFlight = 0;
        trialSuccesses = 0;
        clearWindow();
    }

    private void clearWindow() {
        windowSize = 0;
        windowNext = 0;
        windowFailures = 0;
    }
}
