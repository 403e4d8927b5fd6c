package io.corpora.runtime.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.corpora.spi.FailureKind;
import io.corpora.spi.InvalidInputException;
import io.corpora.spi.PluginException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The guard with a stepped clock (breaker timing), recorded retry pauses and a fixed jitter draw; only timeouts use real
 * time, with tiny values and latches instead of sleeps.
 */
class PluginCallGuardTest {

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final AtomicLong now = new AtomicLong();
    private final List<Duration> pauses = Collections.synchronizedList(new ArrayList<>());
    private final List<String> outcomes = Collections.synchronizedList(new ArrayList<>());
    private final GuardContext context = new GuardContext(executor, now::get, pauses::add, () -> 0.75,
            (key, operation, outcome, nanos) -> outcomes.add(key.tenant() + ":" + operation + ":" + outcome));

    /**
     * timeout 5 s (generous: a loaded CI machine must not turn a held bulkhead slot into a timeout; the timeout tests
     * use their own 50 ms policy), 2 retries with 100 ms ± 40 ms, breaker of 4 at 0.5 open for 5 s, bulkhead 1, no queue.
     */
    private final GuardPolicy policy = new GuardPolicy(Duration.ofSeconds(5), 2, Duration.ofMillis(100), Duration.ofMillis(40),
            4, 0.5, Duration.ofSeconds(5), 1, 1, 0);

    @AfterEach
    void stop() {
        executor.shutdownNow();
    }

    private PluginCallGuard guard(String tenant) {
        return new PluginCallGuard(new GuardKey(tenant, CallKind.STORE, "probe"), policy, context);
    }

    @Test
    void aSuccessfulCallPassesItsResultThrough() {
        assertEquals("answer", guard("a").call("search", () -> "answer"));
        assertEquals(List.of("a:search:success"), outcomes);
    }

    @Test
    void failuresAreRetriedWithDelayAndJitterThenReportedWithTheirCause() {
        AtomicInteger calls = new AtomicInteger();
        IllegalStateException broken = new IllegalStateException("disk gone");
        PluginUnavailableException e = assertThrows(PluginUnavailableException.class, () -> guard("a").call("search", () -> {
            calls.incrementAndGet();
            throw broken;
        }));
        assertEquals(3, calls.get(), "the first attempt and maxRetries=2 retries");
        assertEquals(PluginUnavailableException.Reason.FAILED, e.reason());
        assertSame(broken, e.getCause());
        assertTrue(e.getMessage().contains("store 'probe' of tenant 'a'") && e.getMessage().contains("disk gone"), e.getMessage());
        // random 0.75 → +0.5 × jitter: 100 ms + 20 ms before each retry
        assertEquals(List.of(Duration.ofMillis(120), Duration.ofMillis(120)), pauses);
        assertEquals(PluginCallGuard.DEFAULT_RETRY_AFTER_SECONDS, e.retryAfterSeconds(), "3 failures of 4: the breaker is still closed");
        assertEquals(List.of("a:search:failed"), outcomes);
    }

    @Test
    void aRetrySucceedingAfterAFailureAnswers() {
        AtomicInteger calls = new AtomicInteger();
        assertEquals(2, guard("a").call("search", () -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("transient");
            }
            return calls.get();
        }));
        assertEquals(1, pauses.size());
    }

    @Test
    void callerErrorsPassThroughUnretriedAndCountNeitherWay() {
        PluginCallGuard guard = guard("a");
        AtomicInteger calls = new AtomicInteger();
        for (int i = 0; i < 6; i++) {
            assertThrows(InvalidInputException.class, () -> guard.call("embed", () -> {
                calls.incrementAndGet();
                throw new InvalidInputException("query longer than 512 tokens");
            }));
        }
        assertEquals(6, calls.get());
        assertEquals(CircuitBreaker.State.CLOSED, guard.breakerState());
        assertTrue(pauses.isEmpty());
        assertEquals(Collections.nCopies(6, "a:embed:caller_error"), outcomes, "observed as the caller's, not as successes");
        for (int i = 0; i < 2; i++) {
            assertThrows(PluginUnavailableException.class, () -> guard.call("embed", () -> {
                throw new IllegalStateException("model crashed");
            }));
        }
        assertEquals(CircuitBreaker.State.OPEN, guard.breakerState(),
                "the plugin's own failures (3 attempts a call) fill the window of 4: the caller errors before diluted nothing");
    }

    @Test
    void aCallerErrorPluginExceptionPassesThroughUnretriedAndCountsNeitherWay() {
        PluginCallGuard guard = guard("a");
        PluginException refused = PluginException.callerError("the backend holds at most 64 KiB of metadata a chunk");
        for (int i = 0; i < 6; i++) {
            assertSame(refused, assertThrows(PluginException.class, () -> guard.call("upsert", () -> {
                throw refused;
            })));
        }
        assertEquals(CircuitBreaker.State.CLOSED, guard.breakerState());
        assertTrue(pauses.isEmpty(), "never retried");
        assertEquals(Collections.nCopies(6, "a:upsert:caller_error"), outcomes);
    }

    @Test
    void aTransientPluginExceptionIsRetriedAndCounted() {
        PluginCallGuard guard = guard("a");
        AtomicInteger calls = new AtomicInteger();
        PluginException unreachable = PluginException.transientFailure("backend unreachable", null);
        PluginUnavailableException e = assertThrows(PluginUnavailableException.class, () -> guard.call("search", () -> {
            calls.incrementAndGet();
            throw unreachable;
        }));
        assertEquals(3, calls.get(), "the first attempt and maxRetries=2 retries");
        assertEquals(PluginUnavailableException.Reason.FAILED, e.reason());
        assertSame(unreachable, e.getCause());
        assertEquals(2, pauses.size());
        assertThrows(PluginUnavailableException.class, () -> guard.call("search", () -> {
            throw unreachable;
        }));
        assertEquals(CircuitBreaker.State.OPEN, guard.breakerState(), "6 failed attempts fill the window of 4");
    }

    @Test
    void aPermanentPluginExceptionIsCountedButNotRetried() {
        PluginCallGuard guard = guard("a");
        AtomicInteger calls = new AtomicInteger();
        PluginException wrongKey = PluginException.permanentFailure("401 from the backend: check the API key", null);
        for (int i = 0; i < 3; i++) {
            PluginUnavailableException e = assertThrows(PluginUnavailableException.class, () -> guard.call("embed", () -> {
                calls.incrementAndGet();
                throw wrongKey;
            }));
            assertEquals(PluginUnavailableException.Reason.PERMANENT, e.reason());
            assertSame(wrongKey, e.getCause());
        }
        assertEquals(3, calls.get(), "one attempt a call");
        assertTrue(pauses.isEmpty(), "retrying cannot help");
        assertEquals(CircuitBreaker.State.CLOSED, guard.breakerState(), "3 failures of a window of 4");
        PluginUnavailableException fourth = assertThrows(PluginUnavailableException.class, () -> guard.call("embed", () -> {
            throw wrongKey;
        }));
        assertEquals(CircuitBreaker.State.OPEN, guard.breakerState(), "counted: the fourth fills the window");
        assertTrue(fourth.retryAfterSeconds() >= 5, "the open breaker tells when to retry: " + fourth.retryAfterSeconds());
        assertEquals(Collections.nCopies(4, "a:embed:permanent"), outcomes);
    }

    @Test
    void theKindAnExceptionStatesWinsOverItsClass() {
        // an IllegalArgumentException subclass that says it is transient is retried; a RuntimeException that says
        // caller error is not — the class no longer decides
        class TransientArgument extends IllegalArgumentException implements io.corpora.spi.ClassifiedFailure {
            @Override
            public FailureKind failureKind() {
                return FailureKind.TRANSIENT;
            }
        }
        PluginCallGuard loader = new PluginCallGuard(new GuardKey("a", CallKind.LOADER, "pdf"), policy, context);
        assertThrows(PluginUnavailableException.class, () -> loader.call("load", () -> {
            throw new TransientArgument();
        }));
        assertEquals(2, pauses.size(), "retried although a loader's plain IllegalArgumentException is the caller's");
        assertEquals(FailureKind.CALLER_ERROR, CallKind.STORE.classify(new PluginException(FailureKind.CALLER_ERROR, "x")));
        assertEquals(FailureKind.CALLER_ERROR, CallKind.EMBEDDER.classify(new InvalidInputException("x")));
        assertEquals(FailureKind.TRANSIENT, CallKind.EMBEDDER.classify(new IllegalStateException("legacy: as before 1.2")));
        assertEquals(FailureKind.CALLER_ERROR, CallKind.LOADER.classify(new IllegalArgumentException("legacy: as before 1.2")));
    }

    @Test
    void aPlainIllegalArgumentExceptionFromAStoreIsThePluginsFailure() {
        IllegalArgumentException mismatch = new IllegalArgumentException("the query vector has 384 dimensions but the index 768");
        PluginUnavailableException e = assertThrows(PluginUnavailableException.class, () -> guard("a").call("search", () -> {
            throw mismatch;
        }));
        assertSame(mismatch, e.getCause(), "the server validated the input; a store refusing it is the store's problem");
        assertEquals(2, pauses.size(), "and is retried like any failure");
    }

    @Test
    void anUnreadableDocumentIsTheCallersErrorForALoaderOnly() {
        io.corpora.spi.loader.DocumentLoadException malformed =
                new io.corpora.spi.loader.DocumentLoadException(io.corpora.spi.loader.DocumentLoadException.Reason.MALFORMED, "not a PDF");
        PluginCallGuard loader = new PluginCallGuard(new GuardKey("a", CallKind.LOADER, "pdf"), policy, context);
        for (int i = 0; i < 6; i++) {
            assertSame(malformed, assertThrows(io.corpora.spi.loader.DocumentLoadException.class, () -> loader.call("load", () -> {
                throw malformed;
            })));
        }
        IllegalArgumentException badMetadata = new IllegalArgumentException("metadata key must match [A-Za-z_]…, got: \"Creation Date\"");
        for (int i = 0; i < 6; i++) {
            assertSame(badMetadata, assertThrows(IllegalArgumentException.class, () -> loader.call("load", () -> {
                throw badMetadata; // what the SPI's value types say of a document's content
            })));
        }
        assertEquals(CircuitBreaker.State.CLOSED, loader.breakerState(), "bad documents say nothing about the loader's health");
        assertTrue(pauses.isEmpty(), "and are not retried");
        PluginUnavailableException asStoreFailure = assertThrows(PluginUnavailableException.class, () -> guard("a").call("search", () -> {
            throw malformed;
        }));
        assertSame(malformed, asStoreFailure.getCause());
    }

    @Test
    void aHungCallTimesOutAndIsInterrupted() throws Exception {
        CountDownLatch interrupted = new CountDownLatch(1);
        GuardPolicy once = new GuardPolicy(Duration.ofMillis(50), 0, Duration.ZERO, Duration.ZERO, 4, 0.5, Duration.ofSeconds(5), 1, 1, 0);
        PluginCallGuard guard = new PluginCallGuard(new GuardKey("slow", CallKind.RERANKER, "probe"), once, context);
        long start = System.nanoTime();
        PluginUnavailableException e = assertThrows(PluginUnavailableException.class, () -> guard.call("score", () -> {
            try {
                new CountDownLatch(1).await(); // hangs until interrupted
            } catch (InterruptedException stop) {
                interrupted.countDown();
            }
            return null;
        }));
        assertEquals(PluginUnavailableException.Reason.TIMEOUT, e.reason());
        assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "returned at the timeout, not when the plugin woke");
        assertTrue(interrupted.await(5, TimeUnit.SECONDS), "the hung call was interrupted");
        assertEquals(List.of("slow:score:timeout"), outcomes);
    }

    @Test
    void anOpenBreakerRefusesWithoutCallingThePluginAndTellsWhenToRetry() {
        PluginCallGuard guard = guard("a");
        AtomicInteger calls = new AtomicInteger();
        for (int i = 0; i < 2; i++) { // 2 calls × 3 attempts: the window of 4 fills with failures and opens
            assertThrows(PluginUnavailableException.class, () -> guard.call("search", () -> {
                calls.incrementAndGet();
                throw new IllegalStateException("down");
            }));
        }
        assertEquals(4, calls.get(), "the 4th failure opened the breaker, so the 2nd call's last retry never ran");
        assertEquals(CircuitBreaker.State.OPEN, guard.breakerState());

        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(1500));
        PluginUnavailableException open = assertThrows(PluginUnavailableException.class, () -> guard.call("search", () -> {
            calls.incrementAndGet();
            return "unreachable";
        }));
        assertEquals(PluginUnavailableException.Reason.CIRCUIT_OPEN, open.reason());
        assertEquals(4, open.retryAfterSeconds(), "3.5 s until half-open, rounded up");
        assertTrue(open.getMessage().contains("circuit open"), open.getMessage());
        assertEquals(4, calls.get());

        now.addAndGet(TimeUnit.SECONDS.toNanos(4));
        assertEquals("back", guard.call("search", () -> "back"), "a trial call after the delay");
        assertEquals(CircuitBreaker.State.CLOSED, guard.breakerState());
    }

    @Test
    void oneTenantsOpenBreakerLeavesAnothersClosed() {
        PluginGuards guards = new PluginGuards(kind -> policy, context);
        PluginCallGuard slow = guards.guard("slow", CallKind.STORE, "probe");
        for (int i = 0; i < 2; i++) {
            assertThrows(PluginUnavailableException.class, () -> slow.call("search", () -> {
                throw new IllegalStateException("down");
            }));
        }
        assertSame(slow, guards.guard("slow", CallKind.STORE, "probe"));
        assertEquals(CircuitBreaker.State.OPEN, slow.breakerState());
        assertEquals("fine", guards.guard("healthy", CallKind.STORE, "probe").call("search", () -> "fine"));
        assertEquals(CircuitBreaker.State.CLOSED, guards.guard("slow", CallKind.EMBEDDER, "probe").breakerState());
        guards.forget("slow");
        assertEquals(CircuitBreaker.State.CLOSED, guards.guard("slow", CallKind.STORE, "probe").breakerState());
    }

    @Test
    void aFullBulkheadRefusesAtOnceWithoutRetrying() throws Exception {
        PluginCallGuard guard = guard("a");
        HeldSlot holder = holdTheSlot(guard, "search");
        AtomicInteger calls = new AtomicInteger();
        PluginUnavailableException full = assertThrows(PluginUnavailableException.class,
                () -> guard.call("search", calls::incrementAndGet));
        assertEquals(PluginUnavailableException.Reason.BULKHEAD_FULL, full.reason());
        assertEquals(0, calls.get());
        assertTrue(pauses.isEmpty(), "overload is not retried");
        assertEquals("first", holder.release());
        assertEquals(1, guard.call("search", calls::incrementAndGet));
    }

    @Test
    void aBulkheadFullOfCallsWithinTheirTimeoutIsLoadAndLeavesTheBreakerClosed() throws Exception {
        PluginCallGuard guard = guard("a"); // bulkhead 1, no queue; a window of 4 at 0.5 would open on 2 failures
        HeldSlot holder = holdTheSlot(guard, "search");
        for (int i = 0; i < 10; i++) {
            assertEquals(PluginUnavailableException.Reason.BULKHEAD_FULL,
                    assertThrows(PluginUnavailableException.class, () -> guard.call("search", () -> "x")).reason(),
                    "call " + i + ": refused for load, never because the load opened the breaker");
        }
        assertEquals(CircuitBreaker.State.CLOSED, guard.breakerState());
        assertEquals("first", holder.release());
        assertEquals("after", guard.call("search", () -> "after"), "the burst over, the next call runs at once");
    }

    @Test
    void aBulkheadHeldByACallPastItsTimeoutCountsAsFailuresSoAStuckPluginOpensTheBreaker() throws Exception {
        GuardPolicy tight = new GuardPolicy(Duration.ofMillis(50), 0, Duration.ZERO, Duration.ZERO, 2, 0.5, Duration.ofSeconds(5), 1, 1, 0);
        PluginCallGuard guard = new PluginCallGuard(new GuardKey("a", CallKind.EMBEDDER, "stuck"), tight, context);
        AtomicBoolean wake = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        try {
            assertEquals(PluginUnavailableException.Reason.TIMEOUT, assertThrows(PluginUnavailableException.class, () -> guard.call("embed", () -> {
                while (!wake.get()) {
                    Thread.onSpinWait(); // ignores interrupts: keeps the only slot past its timeout
                }
                ended.countDown();
                return null;
            })).reason());
            assertEquals(CircuitBreaker.State.CLOSED, guard.breakerState(), "one failure: the window of 2 is not full");
            assertEquals(PluginUnavailableException.Reason.BULKHEAD_FULL,
                    assertThrows(PluginUnavailableException.class, () -> guard.call("embed", () -> "x")).reason());
            assertEquals(CircuitBreaker.State.OPEN, guard.breakerState(), "full because the plugin is stuck: a failure");
            assertEquals(PluginUnavailableException.Reason.CIRCUIT_OPEN,
                    assertThrows(PluginUnavailableException.class, () -> guard.call("embed", () -> "x")).reason());
        } finally {
            wake.set(true);
        }
        assertTrue(ended.await(5, TimeUnit.SECONDS));
    }

    @Test
    void aWaitingCallerGetsTheSlotWhenItFreesWithinItsTimeout() throws Exception {
        GuardPolicy queued = new GuardPolicy(Duration.ofSeconds(5), 0, Duration.ZERO, Duration.ZERO, 4, 0.5, Duration.ofSeconds(5), 1, 1, 1);
        PluginCallGuard guard = new PluginCallGuard(new GuardKey("a", CallKind.EMBEDDER, "probe"), queued, context);
        HeldSlot holder = holdTheSlot(guard, "embed");
        Future<String> waiter = executor.submit(() -> guard.call("embed", () -> "second"));
        assertEquals("first", holder.release());
        assertEquals("second", waiter.get(5, TimeUnit.SECONDS));
    }

    @Test
    void aPluginIgnoringInterruptsKeepsItsSlotSoItCannotTakeMoreThreads() throws Exception {
        // A window of 10,000: the polling below counts every bulkhead-full answer as a failure, and on a busy machine ten
        // of them (the old window) opened the breaker before the slot was freed, so "free again" never came.
        GuardPolicy once = new GuardPolicy(Duration.ofMillis(50), 0, Duration.ZERO, Duration.ZERO, 10_000, 0.5, Duration.ofSeconds(5), 1, 1, 0);
        PluginCallGuard guard = new PluginCallGuard(new GuardKey("a", CallKind.RERANKER, "stubborn"), once, context);
        AtomicBoolean wake = new AtomicBoolean();
        CountDownLatch ended = new CountDownLatch(1);
        PluginUnavailableException timeout = assertThrows(PluginUnavailableException.class, () -> guard.call("score", () -> {
            while (!wake.get()) {
                Thread.onSpinWait(); // ignores interrupts
            }
            ended.countDown();
            return null;
        }));
        assertEquals(PluginUnavailableException.Reason.TIMEOUT, timeout.reason());
        assertEquals(PluginUnavailableException.Reason.BULKHEAD_FULL,
                assertThrows(PluginUnavailableException.class, () -> guard.call("score", () -> "x")).reason(),
                "the stubborn call still holds the only slot");
        wake.set(true);
        assertTrue(ended.await(5, TimeUnit.SECONDS));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        String answer = null;
        while (answer == null && System.nanoTime() < deadline) {
            try {
                answer = guard.call("score", () -> "free again");
            } catch (PluginUnavailableException stillReleasing) {
                Thread.onSpinWait(); // the slot is freed in the worker's finally, right after ended counted down
            }
        }
        assertEquals("free again", answer);
    }

    /** A call answering "first" that holds one of the guard's bulkhead slots until {@link #release}d. */
    private record HeldSlot(CountDownLatch latch, Future<String> call) {
        String release() throws Exception {
            latch.countDown();
            return call.get(5, TimeUnit.SECONDS);
        }
    }

    private HeldSlot holdTheSlot(PluginCallGuard guard, String operation) throws InterruptedException {
        CountDownLatch running = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        Future<String> call = executor.submit(() -> guard.call(operation, () -> {
            running.countDown();
            release.await();
            return "first";
        }));
        assertTrue(running.await(5, TimeUnit.SECONDS), "the holding call is running");
        return new HeldSlot(release, call);
    }
}
