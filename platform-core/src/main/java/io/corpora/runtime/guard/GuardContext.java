package io.corpora.runtime.guard;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.DoubleSupplier;
import java.util.function.LongSupplier;

/**
 * What guards need from their surroundings, injectable so tests are deterministic: the executor that runs plugin calls
 * (so the caller can stop waiting at the timeout), a nanosecond clock, how to wait between retries, a uniform random
 * number in [0, 1) for jitter, and who is told about outcomes.
 */
public record GuardContext(Executor executor, LongSupplier nanoClock, Sleeper sleeper, DoubleSupplier random,
                           PluginCallObserver observer) {

    /** Waits between retries. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    public GuardContext {
        Objects.requireNonNull(executor, "executor");
        Objects.requireNonNull(nanoClock, "nanoClock");
        Objects.requireNonNull(sleeper, "sleeper");
        Objects.requireNonNull(random, "random");
        Objects.requireNonNull(observer, "observer");
    }

    /** Real time, real sleeps. */
    public static GuardContext system(Executor executor, PluginCallObserver observer) {
        return new GuardContext(executor, System::nanoTime, d -> Thread.sleep(d.toMillis(), d.toNanosPart() % 1_000_000),
                () -> ThreadLocalRandom.current().nextDouble(), observer);
    }
}
