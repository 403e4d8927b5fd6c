package io.corpora.loader.common;

import io.corpora.spi.loader.DocumentLoadException;
import java.time.Duration;

/**
 * A cooperative time limit for one load: loaders call {@link #check} between units of work (records, pages,
 * PDF operators). Cooperative on purpose: a load that is abandoned by interrupting its thread could keep
 * running in a library that ignores interrupts; a check inside the work loop really stops it.
 */
public final class Deadline {

    private final Duration timeout;
    private final long expiresAtNanos;
    private final String fileName;

    private Deadline(Duration timeout, String fileName) {
        this.timeout = timeout;
        this.expiresAtNanos = System.nanoTime() + timeout.toNanos();
        this.fileName = fileName;
    }

    /** Starts the clock now. */
    public static Deadline start(Duration timeout, String fileName) {
        if (timeout.isNegative() || timeout.isZero()) {
            throw new IllegalArgumentException("timeout must be positive, got " + timeout);
        }
        return new Deadline(timeout, fileName);
    }

    public boolean expired() {
        return System.nanoTime() - expiresAtNanos >= 0;
    }

    /**
     * Fails with {@link DocumentLoadException.Reason#TIMEOUT} once the time is up.
     *
     * @param activity what the loader was doing, e.g. "reading page 12", for the message
     */
    public void check(String activity) {
        if (expired()) {
            throw new DocumentLoadException(DocumentLoadException.Reason.TIMEOUT,
                    "'" + fileName + "' took longer than " + describe(timeout) + " to load and was abandoned while "
                            + activity + "; split the document or ask an operator to raise the loader's 'timeout' option");
        }
    }

    public Duration timeout() {
        return timeout;
    }

    static String describe(Duration duration) {
        long millis = duration.toMillis();
        return millis % 1000 == 0 ? (millis / 1000) + " s" : millis + " ms";
    }
}
