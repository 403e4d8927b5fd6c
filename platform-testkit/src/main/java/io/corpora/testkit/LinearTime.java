package io.corpora.testkit;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import java.util.function.IntFunction;

/**
 * Complexity checks that compare two input sizes in one run, never a wall-clock threshold: work on an input twice as
 * large must cost less than {@value #MAX_RATIO} times as much (linear work costs about 2×, quadratic about 4×).
 *
 * <p>How it is measured, given that other processes share the machine: each size is timed by {@value #SAMPLES}
 * samples, interleaved with the other size's, after a warm-up of both; a sample repeats the work as often as the smaller
 * input needs to take {@value #MIN_SAMPLE_MILLIS} ms. Interference only ever adds time, so a size's cost is its fastest
 * sample, and a pair whose ratio is over the bound is measured again, up to {@value #ATTEMPTS} times: linear work
 * passes once it is seen below the bound, while quadratic work is about 4× in every attempt. Super-linear work on
 * megabyte inputs would run for hours, so a sample that takes longer than {@value #GIVE_UP_SECONDS} s fails at once
 * (it is left to finish on a daemon thread).
 */
public final class LinearTime {

    public static final double MAX_RATIO = 3.0;
    /** One megabyte of text (decimal: a 2 MB input stays below the JVM's usual humongous-object size). */
    public static final int MEGABYTE = 1_000_000;
    /**
     * The smaller input size of the complexity tests: a megabyte, or {@code -Dcorpora.linearTime.chars} (e.g. 10000 to
     * watch a quadratic parser's ratio of about 4 in seconds rather than hours).
     */
    public static final int CHARS = Integer.getInteger("corpora.linearTime.chars", MEGABYTE);
    static final int SAMPLES = 5;
    static final int WARM_UP = 2;
    static final int ATTEMPTS = 3;
    static final long MIN_SAMPLE_MILLIS = 40;
    static final long GIVE_UP_SECONDS = 60;
    /**
     * A plain scan faster than this reads inputs that fit a core's first-level cache: no cache step to allow for, and
     * its ratio is mostly timer noise (2.4 measured for 4,000 characters under load, enough to let quadratic work pass).
     */
    static final long MIN_SCAN_NANOS_FOR_ALLOWANCE = 1_000;
    private static final int MAX_REPEATS = 1 << 16;

    /** The fastest sample per repetition for an input of {@code size} characters and one of {@code 2 × size}. */
    public record Measurement(String what, int size, long smallNanos, long largeNanos) {
        public double ratio() {
            return (double) largeNanos / Math.max(1, smallNanos);
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "%s: %,d chars %.3f ms, %,d chars %.3f ms, ratio %.2f", what, size,
                    smallNanos / 1e6, 2L * size, largeNanos / 1e6, ratio());
        }
    }

    private LinearTime() {}

    /** Times {@code work} on {@code input.apply(size)} and on {@code input.apply(2 * size)}; inputs are built untimed. */
    public static Measurement measure(String what, IntFunction<String> input, int size, Consumer<String> work) {
        String small = input.apply(size);
        String large = input.apply(2 * size);
        ExecutorService runner = Executors.newSingleThreadExecutor(task -> {
            Thread thread = new Thread(task, "linear-time " + what);
            thread.setDaemon(true);
            return thread;
        });
        try {
            for (int i = 0; i < WARM_UP; i++) {
                timed(runner, what, small, 1, work);
                timed(runner, what, large, 1, work);
            }
            int repeats = 1;
            while (repeats < MAX_REPEATS && timed(runner, what, small, repeats, work) < MIN_SAMPLE_MILLIS * 1_000_000) {
                repeats *= 2;
            }
            long smallNanos = Long.MAX_VALUE;
            long largeNanos = Long.MAX_VALUE;
            for (int i = 0; i < SAMPLES; i++) {
                smallNanos = Math.min(smallNanos, timed(runner, what, small, repeats, work) / repeats);
                largeNanos = Math.min(largeNanos, timed(runner, what, large, repeats, work) / repeats);
            }
            return new Measurement(what, size, smallNanos, largeNanos);
        } finally {
            runner.shutdownNow();
        }
    }

    /**
     * Fails unless, in one of {@value #ATTEMPTS} measurements, the larger input costs less than {@value #MAX_RATIO}× the
     * smaller, or less than {@value #MAX_RATIO}/2 of what a plain scan of the same two inputs grows by on this machine.
     * The second bound is for work fast enough to be bound by memory: a 2 MB and a 4 MB string (a megabyte of UTF-16)
     * can straddle a cache size, and a linear scan then costs 3× or more at twice the size; inputs a scan reads in less
     * than {@value #MIN_SCAN_NANOS_FOR_ALLOWANCE} ns get no such allowance. Quadratic work stays about
     * twice the scan's growth, and on megabyte inputs it does not finish within {@value #GIVE_UP_SECONDS} s anyway.
     */
    public static Measurement assertLinear(String what, IntFunction<String> input, int size, Consumer<String> work) {
        List<Measurement> attempts = new ArrayList<>();
        List<Measurement> scans = new ArrayList<>();
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            Measurement measurement = measure(what, input, size, work);
            System.out.println("linear time: " + measurement);
            if (measurement.ratio() < MAX_RATIO) {
                return measurement;
            }
            // Measured again in every attempt, beside the work it is compared with: a scan measured while the machine was
            // busy, or before the JIT compiled it, shows no cache step and would leave every later attempt no allowance.
            Measurement scan = measure("a plain scan of the same inputs", input, size, LinearTime::scan);
            System.out.println("linear time: " + scan);
            scans.add(scan);
            if (scan.smallNanos() >= MIN_SCAN_NANOS_FOR_ALLOWANCE && measurement.ratio() < MAX_RATIO / 2 * scan.ratio()) {
                return measurement;
            }
            attempts.add(measurement);
        }
        throw new AssertionError("super-linear (linear is about 2, quadratic about 4): " + attempts + "; " + scans);
    }

    /** Reads every character (a NUL is in no test input; if one were, the scan would stop early and allow less). */
    private static void scan(String input) {
        scanned = input.indexOf('\u0000');
    }

    /** Where {@link #scan} leaves its answer, so the JIT cannot drop the scan. */
    private static volatile int scanned;

    /** {@link #assertLinear} at {@link #CHARS} on one adversarial line shape. */
    public static Measurement assertLinear(String what, AdversarialLine line, Consumer<String> work) {
        return assertLinear(what + " on " + line, line::ofLength, CHARS, work);
    }

    /** {@link #assertLinear} at {@link #CHARS} on every shape known to have been quadratic ({@link AdversarialLine#known()}). */
    public static void assertLinearOnKnownShapes(String what, Consumer<String> work) {
        for (AdversarialLine line : AdversarialLine.known()) {
            assertLinear(what, line, work);
        }
    }

    private static long timed(ExecutorService runner, String what, String input, int repeats, Consumer<String> work) {
        Future<Long> run = runner.submit(() -> {
            long start = System.nanoTime();
            for (int i = 0; i < repeats; i++) {
                work.accept(input);
            }
            return System.nanoTime() - start;
        });
        try {
            return run.get(GIVE_UP_SECONDS, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("super-linear: " + what + " did not finish " + String.format(Locale.ROOT, "%,d", input.length())
                    + " characters within " + GIVE_UP_SECONDS + " s");
        } catch (ExecutionException e) {
            throw new AssertionError(what + " failed on " + input.length() + " characters", e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }
}
