package io.corpora.engine.chunk;

import java.time.Duration;
import java.util.Objects;
import java.util.function.LongSupplier;

/**
 * How long one document may take to be turned into chunks — loaded, chunked and contextualized — checked
 * cooperatively between units of work (lines, windows, records, chunks). Cooperative on purpose: a check inside the
 * loop really stops the work, where abandoning a thread would leave it running. The clock is injected, so a test can
 * make the work slow by stepping time instead of sleeping.
 */
public final class DocumentDeadline {

    /** No limit (tools and tests that chunk trusted text). */
    public static final DocumentDeadline NONE = new DocumentDeadline(null, () -> 0, 0);

    private final Duration budget;
    private final LongSupplier nanoClock;
    private final long expiresAtNanos;

    private DocumentDeadline(Duration budget, LongSupplier nanoClock, long expiresAtNanos) {
        this.budget = budget;
        this.nanoClock = nanoClock;
        this.expiresAtNanos = expiresAtNanos;
    }

    /** Starts the clock now. */
    public static DocumentDeadline start(Duration budget, LongSupplier nanoClock) {
        if (budget == null || budget.isZero() || budget.isNegative()) {
            throw new IllegalArgumentException("a document deadline needs a positive budget, got " + budget);
        }
        Objects.requireNonNull(nanoClock, "nanoClock");
        return new DocumentDeadline(budget, nanoClock, nanoClock.getAsLong() + budget.toNanos());
    }

    /** The whole budget, or null for {@link #NONE}. */
    public Duration budget() {
        return budget;
    }

    public boolean expired() {
        return budget != null && nanoClock.getAsLong() - expiresAtNanos >= 0;
    }

    /**
     * Throws {@link Exceeded} once the time is up.
     *
     * @param activity what was being done, for the message (e.g. "chunking")
     */
    public void check(String activity) {
        if (expired()) {
            throw new Exceeded(budget, activity);
        }
    }

    /** The document took longer than its budget; the work was abandoned. */
    public static final class Exceeded extends RuntimeException {
        private static final long serialVersionUID = 1L;
        private final transient Duration budget;
        private final String activity;

        Exceeded(Duration budget, String activity) {
            super("took longer than " + describe(budget) + " and was abandoned while " + activity);
            this.budget = budget;
            this.activity = activity;
        }

        public Duration budget() {
            return budget;
        }

        public String activity() {
            return activity;
        }

        private static String describe(Duration duration) {
            long millis = duration.toMillis();
            return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
        }
    }
}
