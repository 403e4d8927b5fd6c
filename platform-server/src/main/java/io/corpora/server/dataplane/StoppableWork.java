package io.corpora.server.dataplane;

import java.time.Duration;

/**
 * Background work of this server that a clean stop ends at its next step boundary, while the persistence unit is still
 * open, so that what it leaves is closed or handed over rather than broken ({@link IngestRecoveryStartup} stops it
 * before releasing the lease).
 */
public interface StoppableWork {

    /** From now on the work ends at its next step boundary and new work of this kind is refused. Returns at once. */
    void requestStop();

    /** Waits up to {@code timeout} for the work in progress to end; whether none is left. */
    boolean awaitStopped(Duration timeout) throws InterruptedException;
}
