package io.corpora.runtime.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class CircuitBreakerTest {

    private final AtomicLong now = new AtomicLong();
    private final long delay = TimeUnit.SECONDS.toNanos(5);
    private final CircuitBreaker breaker = new CircuitBreaker(4, 0.5, delay, 2, now::get);

    private void outcomes(boolean... failures) {
        for (boolean failure : failures) {
            assertEquals(0, breaker.admit(), "admitted while " + breaker.state());
            if (failure) {
                breaker.onFailure();
            } else {
                breaker.onSuccess();
            }
        }
    }

    @Test
    void staysClosedUntilTheWindowIsFullAndTheRatioReached() {
        outcomes(true, true, true);
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state(), "3 failures, but the window of 4 is not full");
        outcomes(false);
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state(), "the 4th outcome, a success, does not open it");
        outcomes(false, false, false, true);
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state(), "1 of the last 4 failed");
        outcomes(true);
        assertEquals(CircuitBreaker.State.OPEN, breaker.state(), "2 of the last 4 failed: ratio 0.5 reached");
    }

    @Test
    void anOpenBreakerRefusesForItsDelayThenLetsTrialsThrough() {
        outcomes(true, true, true, true);
        assertEquals(delay, breaker.admit());
        now.addAndGet(TimeUnit.SECONDS.toNanos(3));
        assertEquals(TimeUnit.SECONDS.toNanos(2), breaker.admit(), "remaining time shrinks with the clock");
        assertEquals(TimeUnit.SECONDS.toNanos(2), breaker.openRemainingNanos());
        now.addAndGet(TimeUnit.SECONDS.toNanos(2));
        assertEquals(CircuitBreaker.State.HALF_OPEN, breaker.state());
        assertEquals(0, breaker.admit(), "trial 1");
        assertEquals(0, breaker.admit(), "trial 2");
        assertTrue(breaker.admit() > 0, "successThreshold trials at a time, no more");
        breaker.onSuccess();
        assertEquals(CircuitBreaker.State.HALF_OPEN, breaker.state(), "one success of two needed");
        breaker.onSuccess();
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state());
        outcomes(true, true, true);
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state(), "closing starts an empty window");
    }

    @Test
    void aFailedTrialReopensForAFullDelay() {
        outcomes(true, true, true, true);
        now.addAndGet(delay);
        assertEquals(0, breaker.admit());
        breaker.onFailure();
        assertEquals(CircuitBreaker.State.OPEN, breaker.state());
        assertEquals(delay, breaker.admit());
    }

    @Test
    void callerErrorsAndLoadCountNeitherForNorAgainstThePlugin() {
        outcomes(true);
        for (int i = 0; i < 10; i++) {
            assertEquals(0, breaker.admit());
            breaker.onInconclusive();
        }
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state(), "ten caller errors fill no window");
        outcomes(true, true);
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state(), "3 failures, and the window of 4 is still not full: caller"
                + " errors are no outcomes (as successes they would have filled it, and 2 of the last 4 failed)");
        outcomes(true);
        assertEquals(CircuitBreaker.State.OPEN, breaker.state(), "the plugin's 4th outcome fills the window");

        now.addAndGet(delay);
        assertEquals(0, breaker.admit(), "trial 1");
        assertEquals(0, breaker.admit(), "trial 2");
        breaker.onInconclusive();
        assertEquals(CircuitBreaker.State.HALF_OPEN, breaker.state(), "a caller error does not close a half-open breaker");
        assertEquals(0, breaker.admit(), "but frees its trial slot");
        breaker.onSuccess();
        breaker.onSuccess();
        assertEquals(CircuitBreaker.State.CLOSED, breaker.state());
    }
}
