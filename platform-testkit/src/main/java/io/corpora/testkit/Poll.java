package io.corpora.testkit;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Waiting on a condition with a deadline, for tests that watch a server or a job: the probe is asked every
 * {@value #INTERVAL_MILLIS} ms (polling, not spinning: CI has two cores) until it answers or the deadline passes.
 */
public final class Poll {

    private static final long INTERVAL_MILLIS = 50;

    private Poll() {}

    /** The probe's first answer (a non-empty value); an {@link AssertionError} naming {@code what} after {@code timeout}. */
    public static <T> T until(String what, Duration timeout, Supplier<Optional<T>> probe) {
        Instant deadline = Instant.now().plus(timeout);
        while (true) {
            Optional<T> answer = probe.get();
            if (answer.isPresent()) {
                return answer.get();
            }
            if (Instant.now().isAfter(deadline)) {
                throw new AssertionError("not within " + timeout.toSeconds() + " s: " + what);
            }
            try {
                Thread.sleep(INTERVAL_MILLIS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for: " + what, e);
            }
        }
    }

    /** Returns once {@code condition} holds; an {@link AssertionError} naming {@code what} after {@code timeout}. */
    public static void until(String what, Duration timeout, BooleanSupplier condition) {
        until(what, timeout, () -> condition.getAsBoolean() ? Optional.of(Boolean.TRUE) : Optional.empty());
    }
}
