package io.corpora.server.dataplane;

import io.corpora.ingest.GracefulStop;

/**
 * Background work of this server that a clean stop ends at its next step boundary, while the persistence unit is still
 * open, so that what it leaves is closed or handed over rather than broken ({@link IngestRecoveryStartup} stops it
 * before releasing the lease).
 */
public interface StoppableWork {

    /** The stop this work honours: once requested, work ends at its next step boundary and new work of its kind at once. */
    GracefulStop gracefulStop();
}
