package io.corpora.runtime.guard;

import io.corpora.spi.FailureKind;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CancellationException;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Guards the calls of one tenant to one plugin, in MicroProfile Fault Tolerance's order: Retry around CircuitBreaker
 * around Timeout around Bulkhead. Each attempt asks the breaker, takes a bulkhead slot (waiting in its queue at most the
 * timeout), runs on the executor and is waited for at most the timeout (then interrupted). A slot is held until the
 * plugin call really ends, so a plugin that ignores interrupts still holds at most {@code bulkhead} threads.
 *
 * <p>What a plugin's exception means is the SPI's failure contract ({@link FailureKind}, read by
 * {@link CallKind#classify}): {@link FailureKind#TRANSIENT} failures (and timeouts) are retried with delay ± jitter and
 * counted by the breaker; {@link FailureKind#PERMANENT} ones are counted but not retried (retrying cannot help); an open
 * breaker and a full bulkhead are not retried either (retrying overload adds to it). A full bulkhead counts as a
 * failure only while a slot is held by a call past its timeout (the plugin is stuck); full of calls still within their
 * timeout, it is load, which says nothing about the plugin's health: counting it (as MP FT does) let one tenant's burst
 * of callers open its breaker and refuse every call of that tenant, retrievals included, for the breaker's delay.
 * {@link FailureKind#CALLER_ERROR}s (e.g. input beyond the model's limit) pass through unchanged and unretried, and
 * say nothing about the plugin's health: the breaker counts them neither as failures (a caller must not be able to
 * open a tenant's breaker) nor as successes (nor close a half-open one); they are observed as {@code caller_error}.
 * Every other outcome that gives no answer becomes a {@link PluginUnavailableException}.
 *
 * <p>Hand-written rather than MicroProfile Fault Tolerance or Resilience4j because the guard is keyed at run time
 * (one breaker and bulkhead per tenant and plugin, created as tenants appear, with per-tenant policy), which MP FT's
 * annotations on CDI beans cannot express, and the core must run without a container or another framework.
 */
public final class PluginCallGuard {

    /** Retry-After when nothing better is known (the breaker is still closed). */
    static final long DEFAULT_RETRY_AFTER_SECONDS = 2;

    private final GuardKey key;
    private final GuardPolicy policy;
    private final GuardContext context;
    private final CircuitBreaker breaker;
    private final Bulkhead bulkhead;
    /** Calls that outlived their timeout and still hold a bulkhead slot (they ignore interrupts). */
    private final AtomicInteger overdue = new AtomicInteger();

    public PluginCallGuard(GuardKey key, GuardPolicy policy, GuardContext context) {
        this.key = key;
        this.policy = policy;
        this.context = context;
        this.breaker = CircuitBreaker.of(policy, context.nanoClock());
        this.bulkhead = new Bulkhead(policy.bulkhead(), policy.waitingTaskQueue());
    }

    public GuardKey key() {
        return key;
    }

    public GuardPolicy policy() {
        return policy;
    }

    public CircuitBreaker.State breakerState() {
        return breaker.state();
    }

    public void run(String operation, Runnable call) {
        call(operation, () -> {
            call.run();
            return null;
        });
    }

    public <T> T call(String operation, Callable<T> call) {
        long start = context.nanoClock().getAsLong();
        PluginUnavailableException last = null;
        for (int attempt = 0; attempt <= policy.maxRetries(); attempt++) {
            if (attempt > 0) {
                pause();
            }
            long blockedNanos = breaker.admit();
            if (blockedNanos > 0) {
                last = new PluginUnavailableException(key, PluginUnavailableException.Reason.CIRCUIT_OPEN, seconds(blockedNanos),
                        null, last == null ? null : last.getCause());
                break;
            }
            try {
                T result = attempt(call);
                breaker.onSuccess();
                observe(operation, "success", start);
                return result;
            } catch (RuntimeException callerError) { // attempt() lets only the caller's errors through
                breaker.onInconclusive();
                observe(operation, "caller_error", start);
                throw callerError;
            } catch (Failure failure) {
                if (failure.reason == PluginUnavailableException.Reason.BULKHEAD_FULL && overdue.get() == 0) {
                    breaker.onInconclusive(); // load, not ill health
                } else {
                    breaker.onFailure();
                }
                long blocked = breaker.openRemainingNanos();
                last = new PluginUnavailableException(key, failure.reason, blocked > 0 ? seconds(blocked) : DEFAULT_RETRY_AFTER_SECONDS,
                        failure.detail, failure.getCause());
                if (failure.reason == PluginUnavailableException.Reason.BULKHEAD_FULL
                        || failure.reason == PluginUnavailableException.Reason.PERMANENT) {
                    break;
                }
            }
        }
        observe(operation, last.reason().name().toLowerCase(java.util.Locale.ROOT), start);
        throw last;
    }

    private <T> T attempt(Callable<T> call) throws Failure {
        long timeoutNanos = policy.timeout().toNanos();
        long begin = context.nanoClock().getAsLong();
        try {
            if (!bulkhead.acquire(timeoutNanos)) {
                throw new Failure(PluginUnavailableException.Reason.BULKHEAD_FULL, policy.bulkhead() + " calls running, "
                        + policy.waitingTaskQueue() + " waiting", null);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Failure(PluginUnavailableException.Reason.FAILED, "interrupted while waiting for a bulkhead slot", e);
        }
        SlotTask<T> task = new SlotTask<>(call);
        try {
            context.executor().execute(task);
        } catch (RejectedExecutionException e) {
            task.cancel(false);
            throw new Failure(PluginUnavailableException.Reason.BULKHEAD_FULL, "the executor refused the call", e);
        }
        long remaining = timeoutNanos - (context.nanoClock().getAsLong() - begin);
        try {
            return task.get(Math.max(remaining, 0), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            task.abandon();
            throw new Failure(PluginUnavailableException.Reason.TIMEOUT, "no answer within " + policy.timeout().toMillis() + " ms", null);
        } catch (InterruptedException e) {
            task.cancel(true);
            Thread.currentThread().interrupt();
            throw new Failure(PluginUnavailableException.Reason.FAILED, "interrupted", e);
        } catch (CancellationException e) {
            throw new Failure(PluginUnavailableException.Reason.FAILED, "cancelled", e);
        } catch (ExecutionException e) {
            Throwable cause = e.getCause();
            if (cause instanceof Error error) {
                throw error;
            }
            FailureKind kind = key.kind().classify(cause);
            if (kind == FailureKind.CALLER_ERROR && cause instanceof RuntimeException runtime) {
                throw runtime;
            }
            throw new Failure(kind == FailureKind.PERMANENT ? PluginUnavailableException.Reason.PERMANENT : PluginUnavailableException.Reason.FAILED,
                    cause.getClass().getSimpleName() + ": " + cause.getMessage(), cause);
        }
    }

    /**
     * The call as a task that frees its bulkhead slot exactly once: when the call ends, or when cancelled before it
     * began. A call abandoned at its timeout that keeps running counts as {@link #overdue} until it ends.
     */
    private final class SlotTask<T> extends FutureTask<T> {
        private static final int WAITING = 0;
        private static final int RUNNING = 1;
        private static final int OVERDUE = 2;
        private static final int ENDED = 3;

        private final AtomicInteger phase; // shared with the body handed to super(), hence the second constructor

        SlotTask(Callable<T> call) {
            this(call, new AtomicInteger(WAITING));
        }

        private SlotTask(Callable<T> call, AtomicInteger phase) {
            super(() -> {
                if (!phase.compareAndSet(WAITING, RUNNING)) {
                    return null; // cancelled before it started; done() already freed the slot
                }
                try {
                    return call.call();
                } finally {
                    if (phase.getAndSet(ENDED) == OVERDUE) {
                        overdue.decrementAndGet();
                    }
                    bulkhead.release();
                }
            });
            this.phase = phase;
        }

        /** The caller stopped waiting: interrupt the call; if it keeps running, its slot is held past its timeout. */
        void abandon() {
            cancel(true);
            if (phase.compareAndSet(RUNNING, OVERDUE)) {
                overdue.incrementAndGet();
            }
        }

        @Override
        protected void done() {
            if (phase.compareAndSet(WAITING, ENDED)) {
                bulkhead.release();
            }
        }
    }

    private void pause() {
        long delay = policy.delay().toNanos();
        long jitter = policy.jitter().toNanos();
        long wait = Math.max(0, delay + Math.round((context.random().getAsDouble() * 2 - 1) * jitter));
        try {
            context.sleeper().sleep(Duration.ofNanos(wait));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void observe(String operation, String outcome, long start) {
        context.observer().completed(key, operation, outcome, context.nanoClock().getAsLong() - start);
    }

    private static long seconds(long nanos) {
        return Math.max(1, (nanos + 999_999_999L) / 1_000_000_000L);
    }

    /** An attempt that gave no answer, with why. */
    private static final class Failure extends Exception {
        private static final long serialVersionUID = 1L;
        private final PluginUnavailableException.Reason reason;
        private final String detail;

        Failure(PluginUnavailableException.Reason reason, String detail, Throwable cause) {
            super(detail, cause, false, false);
            this.reason = reason;
            this.detail = detail;
        }
    }
}
